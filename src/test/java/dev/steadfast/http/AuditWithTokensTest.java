package dev.steadfast.http;

import static dev.steadfast.testsupport.JsonPaths.path;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

/**
 * With API tokens on (ApiAuthTest's profile): the audit entry names the token that made the change, a read-only
 * token's refused change is recorded as refused, a request without a token is not recorded at all, and the audit
 * API itself is open to the readonly and admin roles only.
 */
@QuarkusTest
@TestProfile(Profiles.Tokens.class)
class AuditWithTokensTest {

    private static RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token);
    }

    private static Response newest(String actor) {
        return as("test-readonly-token").get("/ojs/v1/admin/audit?limit=1&actor=" + actor).then().statusCode(200)
                .extract().response();
    }

    @Test
    void entriesNameTheTokenAndRefusalsAreRecorded() {
        as("test-admin-token").post("/ojs/v1/queues/audit-tokens/pause").then().statusCode(200);
        Response admin = newest("admin");
        assertEquals("queues.pause", path(admin, "entries[0].action"));
        assertEquals("audit-tokens", path(admin, "entries[0].scope.name"));
        assertEquals("ok", path(admin, "entries[0].outcome"));

        as("test-readonly-token").post("/ojs/v1/queues/audit-tokens/resume").then().statusCode(403);
        Response readonly = newest("dashboard");
        assertEquals("queues.resume", path(readonly, "entries[0].action"));
        assertEquals("refused", path(readonly, "entries[0].outcome"));
        assertEquals(403, (int) path(readonly, "entries[0].status"));

        String before = path(newest("admin"), "entries[0].id");
        given().post("/ojs/v1/queues/audit-tokens/resume").then().statusCode(401);
        as("nonsense").post("/ojs/v1/queues/audit-tokens/resume").then().statusCode(401);
        assertEquals(before, (String) path(newest("admin"), "entries[0].id"), "nothing recorded without credentials");

        as("test-admin-token").get("/ojs/v1/admin/audit").then().statusCode(200);
        as("test-producer-token").get("/ojs/v1/admin/audit").then().statusCode(403);
        as("test-worker-token").get("/ojs/v1/admin/audit").then().statusCode(403);
        given().get("/ojs/v1/admin/audit").then().statusCode(401);
    }
}
