package dev.steadfast.http;

import static dev.steadfast.testsupport.Api.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.steadfast.testsupport.OpenApiContract;
import dev.steadfast.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * With authentication on (the production default) and the reset hook off: every /ojs operation the OpenAPI
 * document marks as needing the bearer token answers 401 without one and 403 to a token whose roles it does not
 * allow, each as the document declares it; the public ones (manifest, health) need none; the reset hook answers
 * 404. Together with {@link OpenApiContractTest} every status the document declares has been seen.
 */
@QuarkusTest
@TestProfile(Profiles.TokensWithoutReset.class)
class OpenApiAuthContractTest {

    @Test
    void authenticationAndTheResetSwitchAnswerAsDocumented() {
        OpenApiContract contract = new OpenApiContract(request().get("/q/openapi?format=json").asString());
        for (String op : contract.operations()) {
            String[] mp = op.split(" ", 2);
            String path = mp[1].replaceAll("\\{[^}]+}", "oa-x");
            if (!mp[1].startsWith("/ojs")) {
                continue;
            }
            assertEquals(ApiAccess.isPublic(mp[0], path), isPublic(contract, mp), op + ": public in the document?");
            if (isPublic(contract, mp)) {
                assertFalse(contract.declared(op).contains(401) || contract.declared(op).contains(403), op);
                expect(200, contract.check(op, request().request(mp[0], path)));
                continue;
            }
            expect(401, contract.check(op, request().request(mp[0], path)));
            expect(401, contract.check(op, request().header("Authorization", "Bearer not-a-token")
                    .request(mp[0], path)));
            // readonly may only read; a worker may read nothing
            // (a worker reads its job's checkpoint, a producer does not)
            String outsider = !mp[0].equals("GET") ? ApiAuthTest.READONLY
                    : mp[1].contains("checkpoint") ? ApiAuthTest.PRODUCER : ApiAuthTest.WORKER;
            expect(403, contract.check(op, request().header("Authorization", "Bearer " + outsider)
                    .request(mp[0], path)));
        }
        expect(404, contract.check("POST /ojs/v1/admin/reset", request()
                .header("Authorization", "Bearer " + ApiAuthTest.ADMIN).post("/ojs/v1/admin/reset")));
        contract.assertSeen(op -> {
            if (!op.contains(" /ojs")) {
                return Set.of();
            }
            if (isPublic(contract, op.split(" ", 2))) {
                return Set.of(200);
            }
            return op.equals("POST /ojs/v1/admin/reset") ? Set.of(401, 403, 404) : Set.of(401, 403);
        });
    }

    /** An operation whose security requirement is the empty list. */
    private static boolean isPublic(OpenApiContract contract, String[] mp) {
        var security = contract.document().path("paths").path(mp[1]).path(mp[0].toLowerCase()).get("security");
        return security != null && security.isEmpty();
    }

    private static void expect(int status, Response r) {
        assertEquals(status, r.statusCode(), () -> "answered " + r.asString());
    }
}
