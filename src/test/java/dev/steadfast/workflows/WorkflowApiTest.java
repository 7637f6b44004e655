package dev.steadfast.workflows;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetch;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JsonPaths;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Workflows over HTTP against PostgreSQL: chain, group, batch, cancel, and bad input. */
@QuarkusTest
class WorkflowApiTest {

    static final String WORKFLOWS = "/ojs/v1/workflows";

    @Inject
    WorkflowAdvancer advancer;

    @Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static Map<String, Object> job(String type, String queue, Object... more) {
        Map<String, Object> options = obj("queue", queue);
        for (int i = 0; i < more.length; i += 2) {
            options.put((String) more[i], more[i + 1]);
        }
        return obj("type", type, "args", arr(type), "options", options);
    }

    static Response create(Object body) {
        return send(body).post(WORKFLOWS);
    }

    static String createId(Object body) {
        Response r = create(body);
        assertEquals(201, r.statusCode(), r::asString);
        assertEquals("/ojs/v1/workflows/" + path(r, "workflow.id"), java.net.URI.create(r.header("Location")).getPath());
        return path(r, "workflow.id");
    }

    static Response get(String id) {
        return request().get(WORKFLOWS + "/" + id);
    }

    static Map<String, Object> failOnce() {
        return obj("max_attempts", 1);
    }

    @Test
    void aChainRunsItsStepsInOrderPassingResultsOn() {
        String wf = createId(obj("type", "chain", "name", "c", "steps",
                arr(job("s.zero", "wf-c"), job("s.one", "wf-c"), job("s.two", "wf-c"))));
        assertTrue(Api.UUID_V7.matcher(wf).matches());
        get(wf).then().statusCode(200);
        assertEquals(List.of("pending", "waiting", "waiting"), path(get(wf), "workflow.steps.state"));

        Response first = fetch("w", 5, "wf-c");
        assertEquals(List.of("s.zero"), path(first, "jobs.type"), "only the first step is enqueued");
        assertEquals(wf, path(first, "jobs[0].workflow_id"));
        ack(path(first, "jobs[0].id"), "w", obj("n", 0)).then().statusCode(200);

        Response second = fetch("w", 5, "wf-c");
        assertEquals(List.of("s.one"), path(second, "jobs.type"));
        assertEquals(List.of(obj("n", 0)), path(second, "jobs[0].parent_results"));
        ack(path(second, "jobs[0].id"), "w", obj("n", 1)).then().statusCode(200);

        Response third = fetch("w", 5, "wf-c");
        assertEquals(List.of(obj("n", 0), obj("n", 1)), path(third, "jobs[0].parent_results"));
        ack(path(third, "jobs[0].id"), "w", null).then().statusCode(200);

        Response done = get(wf);
        assertEquals("completed", path(done, "workflow.state"));
        assertEquals(3, (int) path(done, "workflow.steps_completed"));
        assertEquals(3, (int) path(done, "workflow.metadata.completed_count"));
        assertTrue(Api.TIMESTAMP.matcher(path(done, "workflow.completed_at")).matches());
        // The summary is also at the top level, where the JavaScript SDK reads its WorkflowStatus.
        assertEquals(wf, path(done, "id"));
        assertEquals("chain", path(done, "type"));
        assertEquals("completed", path(done, "state"));
        assertEquals(3, (int) path(done, "metadata.job_count"));
        assertEquals(null, (Object) path(done, "steps"));
    }

    @Test
    void theMetadataSaysWhenTheFirstJobStartedAndWhenTheWorkflowFinished() {
        String wf = createId(obj("type", "chain", "steps", arr(job("m.a", "wf-m"), job("m.b", "wf-m"))));
        Response created = get(wf);
        Map<String, Object> meta = path(created, "workflow.metadata");
        assertEquals(Map.of("created_at", JsonPaths.<String>path(created, "workflow.created_at"), "job_count", 2, "completed_count", 0,
                "failed_count", 0), meta, "no job has started yet: no started_at (ojs-workflows.md 3.3)");
        String a = fetchOne("w", "wf-m");
        String startedA = Api.jobView(a).get("started_at").toString();
        Response running = get(wf);
        assertEquals(startedA, path(running, "workflow.metadata.started_at"), "the first job began executing");
        assertEquals(startedA, path(running, "metadata.started_at"), "also in the top-level summary");
        assertEquals(startedA, path(running, "workflow.started_at"));
        ack(a).then().statusCode(200);
        String b = fetchOne("w", "wf-m");
        ack(b).then().statusCode(200);
        Response done = get(wf);
        Map<String, Object> m = path(done, "workflow.metadata");
        assertEquals(startedA, m.get("started_at"), "still the first job's start, not the last one's");
        assertEquals(path(done, "workflow.completed_at"), m.get("completed_at"));
        assertTrue(Instant.parse((String) m.get("created_at")).compareTo(Instant.parse(startedA)) <= 0);
        assertTrue(Instant.parse(startedA).compareTo(Instant.parse((String) m.get("completed_at"))) <= 0);
        assertEquals(2, m.get("job_count"));
        assertEquals(2, m.get("completed_count"));
        assertEquals(0, m.get("failed_count"));
        assertEquals(null, m.get("errors"), "no error report on a workflow that did not fail");

        String cancelled = createId(obj("type", "group", "jobs", arr(job("m.c", "wf-m2"))));
        request().delete(WORKFLOWS + "/" + cancelled).then().statusCode(200);
        Map<String, Object> cm = path(get(cancelled), "workflow.metadata");
        assertEquals(cm.get("cancelled_at"), cm.get("completed_at"), "cancelled is a terminal state too");
        assertEquals(null, cm.get("started_at"), "cancelled before any job started");
    }

    @Test
    void aFailedChainReportsTheStepTheJobAndTheErrorInItsMetadata() {
        String wf = createId(obj("type", "chain", "steps", arr(job("e.ok", "wf-e"),
                job("e.fail", "wf-e", "retry", Api.fixedRetry(2, "PT4M")), job("e.never", "wf-e"))));
        ack(fetchOne("w", "wf-e")).then().statusCode(200);
        String id = fetchOne("w", "wf-e");
        nack(id, error("handler_error", "first try")).then().statusCode(200);
        Response mid = get(wf);
        assertEquals("running", path(mid, "workflow.state"));
        assertEquals(null, (Object) path(mid, "workflow.metadata.errors"), "a retryable failure is no failure (9.1)");
        assertEquals(0, (int) path(mid, "workflow.metadata.failed_count"));
        // The retry is due in 4 minutes: move it to now instead of waiting.
        pool.preparedQuery("UPDATE jobs SET run_at = now() - interval '1 second' WHERE id = $1")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(java.util.UUID.fromString(id))).await().indefinitely();
        assertEquals(id, fetchOne("w", "wf-e"), "the retry");
        nack(id, obj("code", "timeout", "message", "took too long", "type", "TimeoutError")).then().statusCode(200);
        Response r = get(wf);
        assertEquals("failed", path(r, "workflow.state"));
        for (String at : List.of("workflow", "workflow.metadata", "metadata")) {
            assertEquals(1, (int) r.path(at + ".failed_step_index"), at);
            assertEquals(List.of(id), r.path(at + ".failed_job_ids"), at);
            Map<String, Object> e = r.path(at + ".errors[0]");
            assertEquals(id, e.get("job_id"), at);
            assertEquals("timeout", e.get("code"), at);
            assertEquals("took too long", e.get("message"), at);
            assertEquals(2, e.get("attempt"), "the attempt of the final failure");
            assertEquals(1, e.get("step_index"));
            assertEquals(null, e.get("workflow_id"), "a job of this workflow itself");
            assertEquals("took too long", ((Map<?, ?>) e.get("error")).get("message"), "the whole error object");
            assertEquals(1, JsonPaths.<List<?>>path(r, at + ".errors").size());
        }
        Map<String, Object> m = path(r, "workflow.metadata");
        assertEquals(3, m.get("job_count"));
        assertEquals(1, m.get("completed_count"));
        assertEquals(1, m.get("failed_count"), "the cancelled third step is neither completed nor failed");
        assertEquals(path(r, "workflow.completed_at"), m.get("completed_at"));
    }

    @Test
    void aChainFailedByACancelledStepNamesItWithAnEmptyErrorList() {
        String wf = createId(obj("type", "chain", "steps", arr(job("x.a", "wf-xc"), job("x.b", "wf-xc"))));
        String first = path(get(wf), "workflow.steps[0].job_id");
        Api.cancel(first).then().statusCode(200);
        advancer.runOnce().await().indefinitely();
        Response r = get(wf);
        assertEquals("failed", path(r, "workflow.state"));
        assertEquals(0, (int) path(r, "workflow.metadata.failed_step_index"));
        assertEquals(List.of(), path(r, "workflow.metadata.failed_job_ids"), "no job failed: one was cancelled");
        assertEquals(List.of(), path(r, "workflow.metadata.errors"));
    }


    @Test
    void aFailedStepFailsTheChainAndCancelsTheRest() {
        String wf = createId(obj("type", "chain", "steps",
                arr(job("s.fail", "wf-cf", "retry", failOnce()), job("s.never", "wf-cf"))));
        String id = fetchOne("w", "wf-cf");
        nack(id, error("handler_error", "boom")).then().statusCode(200);
        assertEquals(List.of(), fetchIds("w", 5, "wf-cf"));
        Response r = get(wf);
        assertEquals("failed", path(r, "workflow.state"));
        assertEquals(List.of("failed", "cancelled"), path(r, "workflow.steps.state"));
        assertEquals(0, (int) path(r, "workflow.failed_step_index"));
        assertEquals(List.of(id), path(r, "workflow.failed_job_ids"));
        assertEquals("cancelled", Api.state(path(r, "workflow.steps[1].job_id")));
    }

    @Test
    void aRetryableFailureOfAStepIsNoWorkflowFailure() {
        String wf = createId(obj("type", "chain", "steps", arr(
                job("s.flaky", "wf-cr", "retry", Api.fixedRetry(2, "PT4M")), job("s.next", "wf-cr"))));
        String id = fetchOne("w", "wf-cr");
        nack(id, error("handler_error", "transient")).then().statusCode(200);
        assertEquals("retryable", Api.state(id));
        Response r = get(wf);
        assertEquals("running", path(r, "workflow.state"));
        assertEquals(List.of("pending", "waiting"), path(r, "workflow.steps.state"));
        assertEquals(List.of(), fetchIds("w", 5, "wf-cr"), "the next step waits for the retry");
    }

    @Test
    void aGroupRunsInParallelAndReportsPartialFailure() {
        String wf = createId(obj("type", "group", "jobs",
                arr(job("g.a", "wf-g"), job("g.b", "wf-g", "retry", failOnce()), job("g.c", "wf-g"))));
        List<String> ids = fetchIds("w", 5, "wf-g");
        assertEquals(3, ids.size(), "every job is enqueued at once");
        ack(ids.get(0)).then().statusCode(200);
        nack(ids.get(1), error("handler_error", "boom")).then().statusCode(200);
        assertEquals("running", path(get(wf), "workflow.state"), "running until every job has finished");
        ack(ids.get(2)).then().statusCode(200);
        Response r = get(wf);
        assertEquals("failed", path(r, "workflow.state"));
        assertEquals(3, (int) path(r, "workflow.jobs_total"));
        assertEquals(2, (int) path(r, "workflow.jobs_completed"));
        assertEquals(1, (int) path(r, "workflow.jobs_failed"));
        assertEquals(List.of(ids.get(1)), path(r, "workflow.failed_job_ids"));
        Map<String, Object> m = path(r, "workflow.metadata");
        assertEquals(3, m.get("job_count"));
        assertEquals(2, m.get("completed_count"));
        assertEquals(1, m.get("failed_count"));
        assertEquals(null, m.get("failed_step_index"), "chains only");
        assertEquals(List.of(ids.get(1)), m.get("failed_job_ids"));
        assertEquals(List.of(obj("job_id", ids.get(1), "code", "handler_error", "message", "boom", "attempt", 1,
                "step_index", 1, "error", path(r, "workflow.jobs[1].error"))), m.get("errors"));
    }

    @Test
    void aBatchWhoseCallbackFailsReportsTheCallback() {
        String wf = createId(obj("type", "batch", "jobs", arr(job("bf.a", "wf-bf")),
                "callbacks", obj("on_complete", job("cb.bad", "wf-bf-cb", "retry", failOnce()))));
        ack(fetchOne("w", "wf-bf")).then().statusCode(200);
        String cb = fetchOne("w", "wf-bf-cb");
        nack(cb, error("handler_error", "callback broke")).then().statusCode(200);
        Response r = get(wf);
        assertEquals("failed", path(r, "workflow.state"));
        Map<String, Object> m = path(r, "workflow.metadata");
        assertEquals(1, m.get("job_count"), "callbacks are not counted among the jobs");
        assertEquals(1, m.get("completed_count"));
        assertEquals(0, m.get("failed_count"));
        assertEquals(List.of(cb), m.get("failed_job_ids"), "9.5: the callback's failure is recorded");
        Map<?, ?> e = ((List<Map<?, ?>>) m.get("errors")).get(0);
        assertEquals("on_complete", e.get("callback"));
        assertEquals("callback broke", e.get("message"));
        assertEquals(null, e.get("step_index"));
    }

    @Test
    void aBatchFiresItsCallbacksOnceWithAllResults() {
        String wf = createId(obj("type", "batch", "jobs", arr(job("b.a", "wf-b"), job("b.b", "wf-b")),
                "callbacks", obj("on_complete", job("cb.done", "wf-b-cb"), "on_success", job("cb.ok", "wf-b-cb"),
                        "on_failure", job("cb.fail", "wf-b-cb"))));
        assertEquals(List.of(), fetchIds("w", 5, "wf-b-cb"), "callbacks wait");
        List<String> ids = fetchIds("w", 5, "wf-b");
        ack(ids.get(0), "w", obj("r", "a")).then().statusCode(200);
        ack(ids.get(1), "w", obj("r", "b")).then().statusCode(200);
        Response cbs = fetch("w", 5, "wf-b-cb");
        List<String> types = path(cbs, "jobs.type");
        assertEquals(List.of("cb.done", "cb.ok"), types.stream().sorted().toList());
        assertEquals(List.of(obj("r", "a"), obj("r", "b")), path(cbs, "jobs[0].parent_results"));
        assertEquals("running", path(get(wf), "workflow.state"), "running while its callbacks run");
        List<String> cbIds = path(cbs, "jobs.id");
        for (String cb : cbIds) {
            ack(cb).then().statusCode(200);
        }
        Response r = get(wf);
        assertEquals("completed", path(r, "workflow.state"));
        assertEquals("cancelled", path(r, "workflow.callbacks.on_failure.state"));
    }

    @Test
    void cancellingAWorkflowCancelsWhatHasNotStartedAndIsRefusedTheSecondTime() {
        String wf = createId(obj("type", "group", "jobs", arr(job("g.a", "wf-x"), job("g.b", "wf-x"))));
        String active = fetchOne("w", "wf-x");
        Response r = request().delete(WORKFLOWS + "/" + wf);
        r.then().statusCode(200);
        assertEquals("cancelled", path(r, "workflow.state"));
        assertEquals(List.of(), fetchIds("w", 5, "wf-x"));
        ack(active).then().statusCode(200); // graceful: a running job may finish
        assertEquals("cancelled", path(get(wf), "workflow.state"));
        Map<String, Object> e = assertError(request().delete(WORKFLOWS + "/" + wf), 409, "conflict");
        assertTrue(((String) e.get("message")).contains("cancelled"));
    }

    @Test
    void aStepCancelledOnItsOwnIsAccountedForByTheAdvancer() {
        String wf = createId(obj("type", "chain", "steps", arr(job("s.a", "wf-y"), job("s.b", "wf-y"))));
        String first = path(get(wf), "workflow.steps[0].job_id");
        Api.cancel(first).then().statusCode(200);
        advancer.runOnce().await().indefinitely();
        Response r = get(wf);
        assertEquals("failed", path(r, "workflow.state"));
        assertEquals(List.of("cancelled", "cancelled"), path(r, "workflow.steps.state"));
    }

    @Test
    void badInputGetsTheErrorEnvelope() {
        assertError(get("0195aaaa-aaaa-7aaa-8aaa-aaaaaaaaaaaa"), 404, "not_found");
        assertError(get("nope"), 404, "not_found");
        assertError(request().delete(WORKFLOWS + "/0195aaaa-aaaa-7aaa-8aaa-aaaaaaaaaaaa"), 404, "not_found");
        assertError(create("{"), 400, "invalid_payload");
        assertError(create(obj("steps", arr(job("a.b", "q")))), 400, "invalid_request");
        assertError(create(obj("type", "dag", "steps", arr(job("a.b", "q")))), 400, "invalid_request");
        assertError(create(obj("type", "chain", "steps", arr())), 400, "invalid_request");
        assertError(create(obj("type", "chain")), 400, "invalid_request");
        assertError(create(obj("type", "group", "jobs", "x")), 400, "invalid_request");
        assertError(create(obj("type", "group", "jobs", arr(7))), 400, "invalid_request");
        assertError(create(obj("type", "batch", "jobs", arr(job("a.b", "q")))), 400, "invalid_request");
        assertError(create(obj("type", "group", "jobs", arr(job("a.b", "q")), "callbacks",
                obj("on_complete", job("c.d", "q")))), 400, "invalid_request");
        Map<String, Object> e = assertError(create(obj("type", "chain", "steps",
                arr(job("a.b", "q"), obj("type", "", "args", arr())))), 400, "invalid_request");
        assertTrue(((String) e.get("message")).contains("steps[1]"), () -> e.toString());
        Map<String, Object> deep = obj("type", "group", "jobs", arr(obj("type", "chain", "steps",
                arr(obj("type", "group", "jobs", arr(job("a.b", "q")))))));
        Map<String, Object> tooDeep = assertError(create(obj("type", "chain", "steps", arr(deep))), 422, "unsupported");
        assertTrue(((String) tooDeep.get("message")).contains("at most 3 levels"), tooDeep::toString);
        assertError(create(obj("type", "chain", "steps", arr(obj("type", "a.b", "args", arr(), "depends_on",
                arr("x"))))), 422, "unsupported");
        String id = Api.newUuidV7();
        assertError(create(obj("type", "group", "jobs", arr(obj("id", id, "type", "a.b", "args", arr()),
                obj("id", id, "type", "a.c", "args", arr())))), 409, "duplicate");
        assertEquals(List.of(), fetchIds("w", 5, "q"), "a refused workflow enqueues nothing");
    }
}
