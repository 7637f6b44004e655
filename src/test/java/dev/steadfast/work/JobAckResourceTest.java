package dev.steadfast.work;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.fixedRetry;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.newUuidV7;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /ojs/v1/jobs/{id}/ack} and {@code /nack}, the job-path aliases of the worker ACK and NACK: the same
 * answers (plus {@code job}) and the same lease rules, so a late answer from a worker that lost its lease is refused
 * on this path too.
 */
@QuarkusTest
class JobAckResourceTest {

    @Inject
    TestClock clock;

    @Inject
    LeaseReaper reaper;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static Response ackOnPath(String id, Object body) {
        return send(body).post("/ojs/v1/jobs/" + id + "/ack");
    }

    private static Response nackOnPath(String id, Object body) {
        return send(body).post("/ojs/v1/jobs/" + id + "/nack");
    }

    private static String activeJob(String queue, String worker) {
        return activeJob(queue, worker, "PT0.001S");
    }

    private static String activeJob(String queue, String worker, String retryDelay) {
        String id = enqueue(obj("type", "alias.job", "args", arr(), "options",
                obj("queue", queue, "visibility_timeout_ms", 60_000, "retry", fixedRetry(3, retryDelay))));
        assertEquals(id, fetchOne(worker, queue));
        return id;
    }

    @Test
    void anAckOnTheJobPathCompletesTheJobAndAnswersItUnderJobToo() {
        String id = activeJob("alias-ack", "w1");

        Response r = ackOnPath(id, obj("worker_id", "w1", "result", obj("rows", 3)));

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("completed", path(r, "job.state"));
        assertEquals(id, path(r, "job.id"));
        assertNotNull(path(r, "job.completed_at"));
        assertEquals("completed", path(r, "state"), "the worker route's fields stay at the top");
        assertEquals(true, path(r, "acknowledged"));
        assertEquals(id, path(r, "job_id"));
        Map<String, Object> job = jobView(id);
        assertEquals("completed", job.get("state"));
        assertEquals(Map.of("rows", 3), job.get("result"));
    }

    @Test
    void anEmptyBodyIsAnAckWithoutResult() {
        String id = activeJob("alias-empty", "w1");

        Response r = Api.request().contentType(Api.OJS_JSON).post("/ojs/v1/jobs/" + id + "/ack");

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("completed", state(id));
        assertNull(jobView(id).get("result"));
    }

    @Test
    void aLateAnswerFromAWorkerThatLostItsLeaseIsRefusedOnTheJobPath() {
        String id = activeJob("alias-late", "worker-a");
        // the lease runs out and is taken back (the reaper given a later instant, as in LeaseExpiryTest)
        assertEquals(1, reaper.runOnce(clock.instant().plus(Duration.ofSeconds(61))).await().indefinitely());

        assertError(ackOnPath(id, obj("worker_id", "worker-a")), 409, "conflict");
        assertError(nackOnPath(id, obj("worker_id", "worker-a", "error", error("x", "late"))), 409, "conflict");

        assertEquals(id, fetchOne("worker-b", "alias-late"));
        assertError(ackOnPath(id, obj("worker_id", "worker-a", "result", obj("late", true))), 409, "conflict");
        assertError(nackOnPath(id, obj("worker_id", "worker-a", "error", error("x", "late"))), 409, "conflict");
        assertEquals("active", state(id), "the refused answers changed nothing");
        assertEquals(2, jobView(id).get("attempt"));

        ackOnPath(id, obj("worker_id", "worker-b")).then().statusCode(200);
        assertEquals("completed", state(id));
    }

    @Test
    void anAckWhoseLeaseRanOutButWasNotYetTakenBackIsRefused() {
        String id = activeJob("alias-expired", "w1");
        clock.advance(Duration.ofSeconds(61));

        assertError(ackOnPath(id, obj("worker_id", "w1")), 409, "conflict");

        assertEquals(1, jobView(id).get("attempt"), "no attempt was completed by the late ack");
    }

    @Test
    void anotherWorkersAnswerIsRefusedAndTheJobStaysWithItsHolder() {
        String id = activeJob("alias-intruder", "owner");

        Map<String, Object> e = assertError(ackOnPath(id, obj("worker_id", "intruder")), 409, "conflict");
        assertEquals("owner", ((Map<?, ?>) e.get("details")).get("lease_owner"));
        assertError(nackOnPath(id, obj("worker_id", "intruder", "error", error("x", "y"))), 409, "conflict");

        assertEquals("active", state(id));
        assertEquals("owner", jobView(id).get("worker_id"));
    }

    @Test
    void aNackOnTheJobPathFailsTheAttemptAndAnswersItUnderJob() {
        // a retry a minute away: with 1 ms the job may already be due (available) when its state is read back
        String id = activeJob("alias-nack", "w1", "PT60S");

        Response r = nackOnPath(id, obj("worker_id", "w1", "error", error("handler_error", "transient")));

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("retryable", path(r, "job.state"));
        assertEquals(1, (Integer) path(r, "job.attempt"));
        assertEquals("retryable", path(r, "state"));
        assertEquals("retryable", state(id));
    }

    @Test
    void aNackWithRequeueHandsTheJobBackAsOnTheWorkerRoute() {
        String id = activeJob("alias-requeue", "w1");

        Response r = nackOnPath(id, obj("worker_id", "w1", "requeue", true));

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("available", path(r, "job.state"));
        assertEquals(1, (Integer) path(r, "job.snoozes"));
    }

    @Test
    void refusalsNameWhatIsWrong() {
        String id = activeJob("alias-bad", "w1");
        String other = newUuidV7();

        assertEquals("job_id", detailField(assertError(ackOnPath(id, obj("job_id", other)), 400, "invalid_request")));
        assertEquals("job_id", detailField(assertError(nackOnPath(id, obj("job_id", other, "error",
                error("x", "y"))), 400, "invalid_request")));
        assertEquals("error", detailField(assertError(nackOnPath(id, obj("worker_id", "w1")), 400,
                "invalid_request")));
        assertError(ackOnPath(other, obj()), 404, "not_found");
        assertError(ackOnPath("not-a-job", obj()), 404, "not_found");
        assertError(send("[1]").post("/ojs/v1/jobs/" + id + "/ack"), 400, "invalid_payload");
        assertEquals("active", state(id), "nothing refused changed the job");

        ackOnPath(id, obj("job_id", id, "worker_id", "w1")).then().statusCode(200);
        assertError(ackOnPath(id, obj("worker_id", "w1")), 409, "conflict");
        String waiting = enqueue("alias.job", "alias-waiting");
        assertError(ackOnPath(waiting, obj()), 409, "conflict");
        assertEquals("available", state(waiting));
    }
}
