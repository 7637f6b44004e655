package dev.steadfast.http;

import static dev.steadfast.testsupport.Api.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/**
 * An authenticated request leaves Quarkus's authentication failure handler behind before the REST layer's filter
 * sees it, so that filter does not map every resource path on each request to tag the metrics of a failure that can
 * no longer happen ({@link ApiAuth}); a request that was not authenticated (a public route) keeps it, so its
 * refusals are still answered and tagged as before.
 */
@QuarkusTest
@TestProfile(Profiles.Tokens.class)
class AuthFailureHandlerTest {

    @Test
    void anAuthenticatedRequestNoLongerCarriesTheFailureHandler() {
        request().header(AuthFailureHandlerProbe.HEADER, "worker").header("Authorization", "Bearer " + ApiAuthTest.WORKER)
                .contentType(Api.OJS_JSON).body("{\"queues\":[\"auth-failure-handler\"]}")
                .post("/ojs/v1/workers/fetch").then().statusCode(200);
        request().header(AuthFailureHandlerProbe.HEADER, "forbidden")
                .header("Authorization", "Bearer " + ApiAuthTest.PRODUCER).contentType(Api.OJS_JSON)
                .body("{\"queues\":[\"auth-failure-handler\"]}").post("/ojs/v1/workers/fetch").then().statusCode(403);
        request().header(AuthFailureHandlerProbe.HEADER, "public").get("/ojs/manifest").then().statusCode(200);

        assertEquals("none", AuthFailureHandlerProbe.SEEN.get("worker"));
        assertEquals("none", AuthFailureHandlerProbe.SEEN.get("forbidden"), "a known token without the role");
        assertNotEquals("none", AuthFailureHandlerProbe.SEEN.get("public"),
                "the anonymous request keeps Quarkus's handler: the probe sees what the change did, not its own order");
    }
}
