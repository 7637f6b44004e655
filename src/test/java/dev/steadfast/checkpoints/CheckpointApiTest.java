package dev.steadfast.checkpoints;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.cancel;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetch;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.fixedRetry;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.steadfast.maintenance.Pruner;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import dev.steadfast.work.LeaseReaper;
import java.time.Duration;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Checkpoints over HTTP (ojs-durable-execution.md): save, read, delete through both SDKs' routes, the sequence, the
 * states that may save, the size limit, bad input, and the checkpoint handed to the next attempt on FETCH.
 */
@QuarkusTest
class CheckpointApiTest {

    @Inject
    Pruner pruner;

    @Inject
    Pool pool;

    @Inject
    LeaseReaper reaper;

    @Inject
    TestClock clock;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static String active(String queue, Object retry) {
        String id = enqueue(obj("type", "t.durable", "args", arr(), "options",
                retry == null ? obj("queue", queue) : obj("queue", queue, "retry", retry)));
        assertEquals(id, fetchOne("w-durable", queue));
        return id;
    }

    private static String path(String id) {
        return "/ojs/v1/jobs/" + id + "/checkpoint";
    }

    @Test
    void theStateIsStoredAsGivenAndTheSequenceGrows() {
        String id = active("cp-save", null);
        send(obj("state", obj("processed", 100, "cursor", "abc", "batch", "b-1"))).put(path(id)).then()
                .statusCode(200).body(at("job_id", equalTo(id))).body(at("sequence", equalTo(1)))
                .body(at("created_at", matchesPattern(Api.TIMESTAMP))).body(at("state", nullValue()));
        // the spec's verb; a smaller state replaces the first whole (no merge)
        send(obj("state", obj("processed", 200), "worker_id", "w-durable")).post(path(id)).then().statusCode(200)
                .body(at("sequence", equalTo(2)));
        request().get(path(id)).then().statusCode(200).body(at("job_id", equalTo(id))).body(at("sequence", equalTo(2)))
                .body(at("state.processed", equalTo(200))).body(at("state.cursor", nullValue()))
                .body(at("created_at", matchesPattern(Api.TIMESTAMP)));
        // any JSON value: the Java SDK saves a plain number, and null is a state too
        send(obj("state", 42)).put(path(id)).then().statusCode(200).body(at("sequence", equalTo(3)));
        request().get(path(id)).then().body(at("state", equalTo(42)));
        send("{\"state\": null}").put(path(id)).then().statusCode(200).body(at("sequence", equalTo(4)));
        Response r = request().get(path(id));
        r.then().statusCode(200).body(at("sequence", equalTo(4)));
        assertEquals("null", Api.tree(r, "/state").toString());
        // nested structure, empty containers and numbers come back unchanged
        Map<String, Object> nested = obj("stages", arr(obj("name", "extract", "rows", 15000), obj("name", "load")),
                "flags", obj("dry_run", false, "nothing", null), "empty", arr(), "none", obj(), "ratio", 0.125);
        send(obj("state", nested)).put(path(id)).then().statusCode(200);
        assertEquals(Api.tree(nested), Api.tree(request().get(path(id)), "/state"));
    }

    @Test
    void theJavaScriptSdkRoutesShareTheCheckpoint() {
        String id = active("cp-js", null);
        request().get("/ojs/v1/checkpoints/" + id + "/resume").then().statusCode(200)
                .body(at("job_id", equalTo(id))).body(at("has_checkpoint", equalTo(false)))
                .body(at("checkpoint", nullValue()));
        send(obj("state", obj("fetched", true), "step_index", 1,
                "metadata", obj("_replay_log", "[{\"seq\":0,\"type\":\"time\"}]", "attempt", "1")))
                .post("/ojs/v1/checkpoints/" + id).then().statusCode(200).body(at("sequence", equalTo(1)));
        request().get("/ojs/v1/checkpoints/" + id + "/resume").then().statusCode(200)
                .body(at("has_checkpoint", equalTo(true))).body(at("checkpoint.state.fetched", equalTo(true)))
                .body(at("checkpoint.step_index", equalTo(1))).body(at("checkpoint.sequence", equalTo(1)))
                .body(at("checkpoint.metadata._replay_log", equalTo("[{\"seq\":0,\"type\":\"time\"}]")))
                .body(at("checkpoint.metadata.attempt", equalTo("1")));
        // the Java SDK's route reads the same checkpoint, and saves the next one
        request().get(path(id)).then().statusCode(200).body(at("state.fetched", equalTo(true)))
                .body(at("step_index", equalTo(1)));
        send(obj("state", 7)).put(path(id)).then().statusCode(200).body(at("sequence", equalTo(2)));
        request().delete("/ojs/v1/checkpoints/" + id).then().statusCode(200).body(at("deleted", equalTo(true)))
                .body(at("job_id", equalTo(id)));
        request().get("/ojs/v1/checkpoints/" + id + "/resume").then().statusCode(200)
                .body(at("has_checkpoint", equalTo(false)));
        assertError(request().get("/ojs/v1/checkpoints/" + Api.newUuidV7() + "/resume"), 404, "not_found");
    }

    @Test
    void onlyTheWorkerOfAnActiveJobSaves() {
        String available = enqueue("t.durable", "cp-states");
        Map<String, Object> e = assertError(send(obj("state", obj("x", 1))).put(path(available)), 409, "conflict");
        assertEquals("available", ((Map<?, ?>) e.get("details")).get("current_state"));
        assertError(request().get(path(available)), 404, "not_found");

        String held = active("cp-held", null);
        e = assertError(send(obj("state", 1, "worker_id", "someone-else")).put(path(held)), 409, "conflict");
        assertEquals("not_lease_holder", ((Map<?, ?>) e.get("details")).get("reason"));
        send(obj("state", 1, "worker_id", "w-durable")).put(path(held)).then().statusCode(200);

        String cancelled = enqueue("t.durable", "cp-cancelled");
        cancel(cancelled).then().statusCode(200);
        assertError(send(obj("state", 1)).put(path(cancelled)), 409, "conflict");

        String completed = active("cp-completed", null);
        ack(completed).then().statusCode(200);
        assertError(send(obj("state", 1)).put(path(completed)), 409, "conflict");

        String unknown = Api.newUuidV7();
        assertError(send(obj("state", 1)).put(path(unknown)), 404, "not_found");
        assertError(send(obj("state", 1)).post("/ojs/v1/checkpoints/" + unknown), 404, "not_found");
        assertError(request().get(path(unknown)), 404, "not_found");
        assertError(request().delete(path(unknown)), 404, "not_found");
        assertError(request().get(path("not-a-job")), 404, "not_found");
    }

    @Test
    void deleteIsIdempotentAndTheSequenceGoesOn() {
        String id = active("cp-delete", fixedRetry(3, "PT0.000001S"));
        send(obj("state", obj("phase", "first"))).put(path(id)).then().body(at("sequence", equalTo(1)));
        send(obj("state", obj("phase", "second"))).put(path(id)).then().body(at("sequence", equalTo(2)));
        request().delete(path(id)).then().statusCode(200).body(at("deleted", equalTo(true)))
                .body(at("job_id", equalTo(id)));
        assertError(request().get(path(id)), 404, "not_found");
        request().delete(path(id)).then().statusCode(200).body(at("deleted", equalTo(false)));
        // a deleted checkpoint is not handed to the next attempt
        nack(id, error("E", "boom")).then().statusCode(200);
        Response next = fetch("w-durable", 1, "cp-delete");
        next.then().body(at("jobs[0].id", equalTo(id))).body(at("jobs[0].attempt", equalTo(2)))
                .body(at("jobs[0].checkpoint", nullValue()));
        // the sequence is the job's: it continues after a delete
        send(obj("state", obj("phase", "after"))).put(path(id)).then().body(at("sequence", equalTo(3)));
    }

    @Test
    void fetchHandsTheCheckpointToTheNextAttempt() {
        String id = enqueue(obj("type", "t.durable", "args", arr(), "options",
                obj("queue", "cp-resume", "retry", fixedRetry(3, "PT0.000001S"))));
        Response first = fetch("w-1", 1, "cp-resume");
        first.then().body(at("jobs[0].id", equalTo(id))).body(at("jobs[0].checkpoint", nullValue()));
        send(obj("state", obj("rows", 750, "cursor", "abc-750"), "worker_id", "w-1")).put(path(id)).then()
                .statusCode(200);
        nack(id, error("E", "connection lost")).then().statusCode(200);
        Response second = fetch("w-2", 1, "cp-resume");
        second.then().body(at("jobs[0].id", equalTo(id))).body(at("jobs[0].attempt", equalTo(2)))
                .body(at("jobs[0].checkpoint.state.rows", equalTo(750)))
                .body(at("jobs[0].checkpoint.state.cursor", equalTo("abc-750")))
                .body(at("jobs[0].checkpoint.sequence", equalTo(1))).body(at("job.checkpoint.sequence", equalTo(1)));
        // the first worker lost the job: its late save is refused
        assertError(send(obj("state", 1, "worker_id", "w-1")).put(path(id)), 409, "conflict");
        send(obj("state", obj("rows", 1500), "worker_id", "w-2")).put(path(id)).then().body(at("sequence", equalTo(2)));
        // a finished job has no checkpoint (DUR-005); the pruner then removes it
        Api.ack(id, "w-2", null).then().statusCode(200);
        assertError(request().get(path(id)), 404, "not_found");
        request().get("/ojs/v1/checkpoints/" + id + "/resume").then().body(at("has_checkpoint", equalTo(false)));
        assertEquals(1, rows(id));
        pruner.runOnce(Instant.now()).await().indefinitely();
        assertEquals(0, rows(id));
    }

    @Test
    void aWorkerThatVanishedLeavesItsCheckpointToTheNextAttempt() {
        String id = enqueue(obj("type", "t.durable", "args", arr(), "options", obj("queue", "cp-crash",
                "visibility_timeout_ms", 1000, "retry", fixedRetry(3, "PT0.001S"))));
        assertEquals(id, fetchOne("w-crashed", "cp-crash"));
        send(obj("state", obj("epoch", 50), "worker_id", "w-crashed")).put(path(id)).then().statusCode(200);
        // the worker never answers: its lease runs out and the reaper takes the job back
        reaper.runOnce(clock.instant().plus(Duration.ofSeconds(2))).await().indefinitely();
        clock.advance(Duration.ofSeconds(3));
        fetch("w-next", 1, "cp-crash").then().body(at("jobs[0].id", equalTo(id)))
                .body(at("jobs[0].attempt", equalTo(2)))
                .body(at("jobs[0].checkpoint.state.epoch", equalTo(50)))
                .body(at("jobs[0].checkpoint.sequence", equalTo(1)));
    }

    @Test
    void aDeadLetterRetryResumesFromTheCheckpoint() {
        String id = active("cp-dead", obj("max_attempts", 1, "on_exhaustion", "dead_letter"));
        send(obj("state", obj("step", 3))).put(path(id)).then().statusCode(200);
        nack(id, error("E", "fatal")).then().statusCode(200).body(at("state", equalTo("discarded")));
        assertError(request().get(path(id)), 404, "not_found");
        pruner.runOnce(Instant.now()).await().indefinitely();
        assertEquals(1, rows(id), "a dead letter's checkpoint is kept for a retry");
        send(obj()).post("/ojs/v1/admin/dead-letter/" + id + "/retry").then().statusCode(200);
        fetch("w-durable", 1, "cp-dead").then().body(at("jobs[0].id", equalTo(id)))
                .body(at("jobs[0].checkpoint.state.step", equalTo(3)))
                .body(at("jobs[0].checkpoint.sequence", equalTo(1)));
    }

    @Test
    void aProgressReportsCheckpointIsTheSameCheckpoint() {
        String id = active("cp-progress", null);
        send(obj("progress", 0.5, "checkpoint", obj("offset", 420))).put("/ojs/v1/jobs/" + id + "/progress").then()
                .statusCode(200).body(at("checkpoint.offset", equalTo(420)));
        request().get(path(id)).then().statusCode(200).body(at("state.offset", equalTo(420)))
                .body(at("sequence", equalTo(1)));
        send(obj("state", obj("offset", 500))).put(path(id)).then().body(at("sequence", equalTo(2)));
        request().get("/ojs/v1/jobs/" + id + "/progress").then().body(at("checkpoint.offset", equalTo(500)));
    }

    @Test
    void fetchOfJobsWithoutACheckpointIsUnchanged() {
        String id = enqueue("t.plain", "cp-plain");
        Response r = fetch("w-durable", 1, "cp-plain");
        r.then().body(at("jobs[0].id", equalTo(id))).body(at("jobs[0].state", equalTo("active")));
        assertFalse(r.asString().contains("checkpoint"), r.asString());
    }

    @Test
    void aStateNearTheLimitIsKeptAndALargerBodyIsRefused() {
        String id = active("cp-size", null);
        String big = "x".repeat(1_040_000);
        send(obj("state", obj("blob", big))).put(path(id)).then().statusCode(200).body(at("sequence", equalTo(1)));
        request().get(path(id)).then().statusCode(200).body(at("state.blob.length()", equalTo(1_040_000)));
        Map<String, Object> e = assertError(send(obj("state", obj("blob", "x".repeat(1_048_576)))).put(path(id)),
                413, "payload_too_large");
        assertEquals(1_048_576, ((Map<?, ?>) e.get("details")).get("limit_bytes"));
        request().get(path(id)).then().body(at("sequence", equalTo(1)));
    }

    @Test
    void badInputIsRefusedWithTheEnvelope() {
        String id = active("cp-bad", null);
        assertError(send("not json").put(path(id)), 400, "invalid_payload");
        assertError(send("[1]").put(path(id)), 400, "invalid_payload");
        assertEquals("state", detailField(assertError(send(obj("worker_id", "w-durable")).put(path(id)), 400,
                "invalid_request")));
        assertEquals("step_index", detailField(assertError(send(obj("state", 1, "step_index", "one"))
                .post("/ojs/v1/checkpoints/" + id), 400, "invalid_request")));
        assertEquals("step_index", detailField(assertError(send(obj("state", 1, "step_index", -1))
                .post("/ojs/v1/checkpoints/" + id), 400, "invalid_request")));
        assertEquals("metadata", detailField(assertError(send(obj("state", 1, "metadata", arr()))
                .post("/ojs/v1/checkpoints/" + id), 400, "invalid_request")));
        assertEquals("worker_id", detailField(assertError(send(obj("state", 1, "worker_id", 7)).put(path(id)), 400,
                "invalid_request")));
        assertEquals("state.note", detailField(assertError(send(obj("state", obj("note", "a\u0000b"))).put(path(id)),
                400, "invalid_request")));
        assertEquals("state.a\\u0000", detailField(assertError(send(obj("state", obj("a\u0000", 1))).put(path(id)),
                400, "invalid_request")));
        assertError(request().get(path(id)), 404, "not_found");
    }

    private long rows(String id) {
        return pool.preparedQuery("SELECT count(*) FROM job_checkpoints WHERE job_id = $1")
                .execute(Tuple.of(UUID.fromString(id))).await().indefinitely().iterator().next().getLong(0);
    }
}
