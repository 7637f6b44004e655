package dev.steadfast.http;

import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With authentication on (the production default): every /ojs endpoint refuses a request without a token and
 * with an unknown one (401 with WWW-Authenticate: Bearer) and a token without the right role (403), each as the
 * OJS envelope with a request id; the right role gets through; the manifest and health stay public.
 */
@QuarkusTest
@TestProfile(Profiles.Tokens.class)
public class ApiAuthTest {

    static final String PRODUCER = "test-producer-token";
    static final String WORKER = "test-worker-token";
    public static final String ADMIN = "test-admin-token";
    static final String READONLY = "test-readonly-token";

    private static final String ID = "019a0000-0000-7000-8000-000000000001";

    /** method, path, body (or null), a token that may call it, a token that may not. */
    private static final List<Object[]> ENDPOINTS = List.of(
            new Object[] {"POST", "/ojs/v1/jobs", "{\"type\":\"a.b\",\"args\":[]}", PRODUCER, WORKER},
            new Object[] {"POST", "/ojs/v1/jobs/batch", "{\"jobs\":[{\"type\":\"a.b\",\"args\":[]}]}", PRODUCER,
                    READONLY},
            new Object[] {"GET", "/ojs/v1/jobs/" + ID, null, PRODUCER, WORKER},
            new Object[] {"DELETE", "/ojs/v1/jobs/" + ID, null, PRODUCER, READONLY},
            new Object[] {"POST", "/ojs/v1/jobs/" + ID + "/activate", null, PRODUCER, WORKER},
            new Object[] {"POST", "/ojs/v1/workers/fetch", "{\"queues\":[\"auth\"]}", WORKER, PRODUCER},
            new Object[] {"POST", "/ojs/v1/workers/ack", "{\"job_id\":\"" + ID + "\"}", WORKER, PRODUCER},
            new Object[] {"POST", "/ojs/v1/workers/ack/batch", "{\"worker_id\":\"w1\",\"acks\":[{\"job_id\":\""
                    + ID + "\"}]}", WORKER, PRODUCER},
            new Object[] {"POST", "/ojs/v1/workers/nack", "{\"job_id\":\"" + ID + "\",\"error\":{\"message\":\"x\"}}",
                    WORKER, READONLY},
            new Object[] {"POST", "/ojs/v1/jobs/" + ID + "/ack", "{}", WORKER, PRODUCER},
            new Object[] {"POST", "/ojs/v1/jobs/" + ID + "/nack", "{\"error\":{\"message\":\"x\"}}", WORKER,
                    READONLY},
            new Object[] {"POST", "/ojs/v1/workers/heartbeat", "{\"worker_id\":\"w1\"}", WORKER, PRODUCER},
            new Object[] {"POST", "/ojs/v1/workers/snooze", "{\"job_id\":\"" + ID + "\",\"delay_ms\":1}", WORKER,
                    PRODUCER},
            new Object[] {"GET", "/ojs/v1/queues", null, READONLY, WORKER},
            new Object[] {"POST", "/ojs/v1/queues/auth/pause", null, ADMIN, READONLY},
            new Object[] {"POST", "/ojs/v1/queues/auth/resume", null, ADMIN, PRODUCER},
            new Object[] {"GET", "/ojs/v1/admin/queues", null, READONLY, PRODUCER},
            new Object[] {"GET", "/ojs/v1/admin/queues/auth", null, READONLY, WORKER},
            new Object[] {"POST", "/ojs/v1/admin/queues/auth/pause", null, ADMIN, READONLY},
            new Object[] {"POST", "/ojs/v1/admin/queues/auth/resume", null, ADMIN, WORKER},
            new Object[] {"POST", "/ojs/v1/admin/jobs/" + ID + "/retry", null, ADMIN, PRODUCER},
            new Object[] {"POST", "/ojs/v1/admin/jobs/" + ID + "/cancel", null, ADMIN, PRODUCER},
            new Object[] {"DELETE", "/ojs/v1/admin/jobs/" + ID, null, ADMIN, READONLY},
            new Object[] {"GET", "/ojs/v1/admin/jobs/count?queue=auth", null, READONLY, WORKER},
            new Object[] {"DELETE", "/ojs/v1/admin/jobs/completed?before=2000-01-01T00:00:00Z", null, ADMIN, READONLY},
            new Object[] {"GET", "/ojs/v1/admin/metrics/summary", null, READONLY, PRODUCER},
            new Object[] {"GET", "/ojs/v1/retry-policies", null, READONLY, WORKER},
            new Object[] {"GET", "/ojs/v1/events", null, READONLY, PRODUCER},
            new Object[] {"GET", "/ojs/v1/dead-letter", null, READONLY, WORKER},
            new Object[] {"GET", "/ojs/v1/dead-letter/stats", null, READONLY, PRODUCER},
            new Object[] {"GET", "/ojs/v1/dead-letter/" + ID, null, READONLY, WORKER},
            new Object[] {"POST", "/ojs/v1/dead-letter/" + ID + "/retry", null, ADMIN, READONLY},
            new Object[] {"DELETE", "/ojs/v1/dead-letter/" + ID, null, ADMIN, PRODUCER},
            new Object[] {"POST", "/ojs/v1/dead-letter/retry", "{\"filter\":{\"queue\":\"auth\"},\"confirm\":true}",
                    ADMIN, READONLY},
            new Object[] {"POST", "/ojs/v1/dead-letter/delete", "{\"filter\":{\"queue\":\"auth\"},\"confirm\":true}",
                    ADMIN, WORKER},
            new Object[] {"DELETE", "/ojs/v1/dead-letter?queue=auth&confirm=true", null, ADMIN, READONLY},
            new Object[] {"GET", "/ojs/v1/admin/dead-letter", null, READONLY, PRODUCER},
            new Object[] {"GET", "/ojs/v1/admin/dead-letter/stats", null, READONLY, WORKER},
            new Object[] {"POST", "/ojs/v1/admin/dead-letter/" + ID + "/retry", null, ADMIN, READONLY},
            new Object[] {"DELETE", "/ojs/v1/admin/dead-letter/" + ID, null, ADMIN, PRODUCER},
            new Object[] {"POST", "/ojs/v1/admin/dead-letter/retry", "{\"filter\":{\"queue\":\"auth\"},\"confirm\":true}",
                    ADMIN, READONLY},
            new Object[] {"GET", "/ojs/v1/admin/workers", null, READONLY, WORKER},
            new Object[] {"POST", "/ojs/v1/admin/workers/w1/quiet", null, ADMIN, WORKER},
            new Object[] {"POST", "/ojs/v1/admin/workers/w1/terminate", null, ADMIN, READONLY},
            new Object[] {"POST", "/ojs/v1/admin/workers/w1/resume", null, ADMIN, PRODUCER},
            new Object[] {"POST", "/ojs/v1/admin/reset", null, ADMIN, READONLY},
            new Object[] {"GET", "/ojs/v1/no-such-thing", null, READONLY, null});

    private static Response call(Object[] e, String authorization) {
        RequestSpecification r = request();
        if (authorization != null) {
            r = r.header("Authorization", authorization);
        }
        if (e[2] != null) {
            r = r.contentType(Api.OJS_JSON).body((String) e[2]);
        }
        return r.request((String) e[0], (String) e[1]);
    }

    private static void assertRefused(Response r, int status, String code, String what) {
        Map<String, Object> err = Api.assertError(r, status, code);
        assertEquals(r.header("X-Request-Id"), err.get("request_id"), what);
        if (status == 401) {
            assertTrue(r.header("WWW-Authenticate").startsWith("Bearer"), what);
        }
    }

    @Test
    void everyEndpointRefusesAMissingOrUnknownToken() {
        for (Object[] e : ENDPOINTS) {
            String what = e[0] + " " + e[1];
            assertRefused(call(e, null), 401, "unauthenticated", what);
            assertRefused(call(e, "Bearer not-a-token"), 401, "unauthenticated", what);
            assertRefused(call(e, "Basic " + ADMIN), 401, "unauthenticated", what);
            assertRefused(call(e, "Bearer " + ADMIN.toUpperCase()), 401, "unauthenticated", what);
        }
        assertRefused(request().get("/ojs/v1/events/stream"), 401, "unauthenticated", "event stream");
    }

    @Test
    void everyEndpointRefusesAWrongRole() {
        for (Object[] e : ENDPOINTS) {
            if (e[4] != null) {
                Response r = call(e, "Bearer " + e[4]);
                assertRefused(r, 403, "permission_denied", e[0] + " " + e[1]);
            }
        }
    }

    @Test
    void theRightRoleGetsThrough() {
        for (Object[] e : ENDPOINTS) {
            for (String token : List.of((String) e[3], ADMIN)) {
                Response r = call(e, "Bearer " + token);
                assertNotEquals(401, r.statusCode(), () -> e[0] + " " + e[1] + ": " + r.asString());
                assertNotEquals(403, r.statusCode(), () -> e[0] + " " + e[1] + ": " + r.asString());
                assertTrue(r.statusCode() < 500, () -> e[0] + " " + e[1] + ": " + r.asString());
            }
        }
        String id = path(request().header("Authorization", "Bearer " + PRODUCER).contentType(Api.OJS_JSON)
                .body("{\"type\":\"auth.ok\",\"args\":[1],\"options\":{\"queue\":\"auth-ok\"}}").post("/ojs/v1/jobs")
                .then().statusCode(201).extract(), "job.id");
        request().header("Authorization", "Bearer " + WORKER).contentType(Api.OJS_JSON)
                .body("{\"queues\":[\"auth-ok\"],\"worker_id\":\"w-auth\"}").post("/ojs/v1/workers/fetch")
                .then().statusCode(200);
        request().header("Authorization", "Bearer " + WORKER).contentType(Api.OJS_JSON)
                .body("{\"job_id\":\"" + id + "\",\"worker_id\":\"w-auth\"}").post("/ojs/v1/workers/ack")
                .then().statusCode(200);
        assertEquals("completed", path(request().header("Authorization", "Bearer " + READONLY).get("/ojs/v1/jobs/" + id), "job.state"));
    }

    @Test
    void theManifestAndHealthArePublicAndTheManifestSaysHowToAuthenticate() {
        Response m = request().get("/ojs/manifest");
        assertEquals(200, m.statusCode());
        assertEquals(Boolean.TRUE, path(m, "authentication.required"));
        assertEquals(List.of("bearer"), path(m, "authentication.schemes"));
        assertEquals(200, request().get("/ojs/v1/health").statusCode());
    }

    @Test
    void theErrorReferenceAndTheRootArePublic() {
        assertTrue(ErrorDocsTest.ids("/docs/errors.html").contains("unauthenticated"));
        Response root = request().redirects().follow(false).get("/");
        assertEquals(303, root.statusCode(), root::asString);
        assertTrue(root.header("Location").endsWith("/admin"), root.header("Location"));
    }
}
