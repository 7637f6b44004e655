package dev.steadfast.work;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.fixedRetry;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Progress over HTTP (ojs-progress.md): report, clamp, never backwards, heartbeat, per attempt, SDK alias. */
@QuarkusTest
class ProgressApiTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static String active(String queue, Object retry) {
        String id = enqueue(obj("type", "t.progress", "args", arr(), "options",
                retry == null ? obj("queue", queue) : obj("queue", queue, "retry", retry)));
        assertEquals(id, fetchOne("w-progress", queue));
        return id;
    }

    @Test
    void reportsAreClampedKeptAndNeverGoBackwards() {
        String id = active("pr-a", null);
        request().get("/ojs/v1/jobs/" + id + "/progress").then().statusCode(200)
                .body(at("progress", nullValue())).body(at("data", nullValue())).body(at("state", equalTo("active")));
        send(obj("progress", 0.5, "message", "half", "data", obj("rows", 5))).put("/ojs/v1/jobs/" + id + "/progress")
                .then().statusCode(200).body(at("progress", equalTo(0.5f))).body(at("message", equalTo("half")))
                .body(at("data.rows", equalTo(5)));
        send(obj("progress", 0.2, "message", "lower")).put("/ojs/v1/jobs/" + id + "/progress").then()
                .statusCode(200).body(at("progress", equalTo(0.5f))).body(at("message", equalTo("lower")));
        send(obj("progress", 1.5)).put("/ojs/v1/jobs/" + id + "/progress").then().body(at("progress", equalTo(1.0f)));
        request().get("/ojs/v1/jobs/" + id + "/progress").then().body(at("progress", equalTo(1.0f)));
    }

    @Test
    void aReportExtendsTheLeaseLikeAHeartbeat() {
        String id = enqueue(obj("type", "t.progress", "args", arr(), "options", obj("queue", "pr-lease")));
        send(obj("queues", arr("pr-lease"), "worker_id", "w1", "visibility_timeout_ms", 5000))
                .post("/ojs/v1/workers/fetch").then().statusCode(200);
        Instant before = Instant.parse((String) jobView(id).get("lease_expires_at"));
        send(obj("progress", 0.1, "worker_id", "w1")).put("/ojs/v1/jobs/" + id + "/progress").then().statusCode(200);
        Instant after = Instant.parse((String) jobView(id).get("lease_expires_at"));
        assertTrue(!after.isBefore(before), before + " -> " + after);
        send(obj("progress", 0.9, "worker_id", "someone-else")).put("/ojs/v1/jobs/" + id + "/progress").then()
                .statusCode(200).body(at("progress", equalTo(0.1f)));
    }

    @Test
    void completionShowsOneRetryStartsAfreshAndStaleReportsAreIgnored() {
        String done = active("pr-done", null);
        send(obj("progress", 0.4)).put("/ojs/v1/jobs/" + done + "/progress").then().statusCode(200);
        ack(done).then().statusCode(200);
        request().get("/ojs/v1/jobs/" + done + "/progress").then().body(at("progress", equalTo(1.0f)))
                .body(at("state", equalTo("completed")));
        send(obj("progress", 0.1)).put("/ojs/v1/jobs/" + done + "/progress").then().statusCode(200)
                .body(at("progress", equalTo(1.0f)));

        String retried = active("pr-retry", fixedRetry(3, "PT0.000001S"));
        send(obj("progress", 0.7)).put("/ojs/v1/jobs/" + retried + "/progress").then().statusCode(200);
        nack(retried, error("E", "boom")).then().statusCode(200);
        request().get("/ojs/v1/jobs/" + retried + "/progress").then().body(at("progress", equalTo(0.7f)));
        assertEquals(retried, fetchOne("w-progress", "pr-retry"));
        request().get("/ojs/v1/jobs/" + retried + "/progress").then().body(at("progress", nullValue()));
    }

    @Test
    void theJavaScriptSdkReportsAPercentage() {
        String id = active("pr-js", null);
        send(obj("job_id", id, "percentage", 40, "message", "Processed 40 rows")).post("/ojs/v1/workers/progress")
                .then().statusCode(200).body(at("progress", equalTo(0.4f)))
                .body(at("message", equalTo("Processed 40 rows")));
    }

    @Test
    void badReportsAreRefusedWithTheEnvelope() {
        String id = active("pr-bad", null);
        assertError(send(obj("message", "nothing")).put("/ojs/v1/jobs/" + id + "/progress"), 400, "invalid_request");
        assertError(send(obj("progress", "half")).put("/ojs/v1/jobs/" + id + "/progress"), 400, "invalid_request");
        assertError(send(obj("progress", 0.5, "data", arr())).put("/ojs/v1/jobs/" + id + "/progress"), 400,
                "invalid_request");
        assertError(send(obj("progress", 0.5, "message", "x".repeat(1001))).put("/ojs/v1/jobs/" + id + "/progress"),
                400, "invalid_request");
        assertError(send(obj("progress", 0.5)).put("/ojs/v1/jobs/0195aaaa-aaaa-7aaa-8aaa-aaaaaaaaaaaa/progress"),
                404, "not_found");
        assertError(request().get("/ojs/v1/jobs/nope/progress"), 404, "not_found");
        assertError(send(obj("percentage", 10)).post("/ojs/v1/workers/progress"), 400, "invalid_request");
    }
}
