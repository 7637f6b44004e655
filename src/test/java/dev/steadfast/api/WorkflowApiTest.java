package dev.steadfast.api;

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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.scheduler.WorkflowAdvancer;
import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
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
        assertEquals("/ojs/v1/workflows/" + r.path("workflow.id"), java.net.URI.create(r.header("Location")).getPath());
        return r.path("workflow.id");
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
        assertEquals(List.of("pending", "waiting", "waiting"), get(wf).path("workflow.steps.state"));

        Response first = fetch("w", 5, "wf-c");
        assertEquals(List.of("s.zero"), first.path("jobs.type"), "only the first step is enqueued");
        assertEquals(wf, first.path("jobs[0].workflow_id"));
        ack(first.path("jobs[0].id"), "w", obj("n", 0)).then().statusCode(200);

        Response second = fetch("w", 5, "wf-c");
        assertEquals(List.of("s.one"), second.path("jobs.type"));
        assertEquals(List.of(obj("n", 0)), second.path("jobs[0].parent_results"));
        ack(second.path("jobs[0].id"), "w", obj("n", 1)).then().statusCode(200);

        Response third = fetch("w", 5, "wf-c");
        assertEquals(List.of(obj("n", 0), obj("n", 1)), third.path("jobs[0].parent_results"));
        ack(third.path("jobs[0].id"), "w", null).then().statusCode(200);

        Response done = get(wf);
        assertEquals("completed", done.path("workflow.state"));
        assertEquals(3, (int) done.path("workflow.steps_completed"));
        assertEquals(3, (int) done.path("workflow.metadata.completed_count"));
        assertTrue(Api.TIMESTAMP.matcher(done.path("workflow.completed_at")).matches());
        // The summary is also at the top level, where the JavaScript SDK reads its WorkflowStatus.
        assertEquals(wf, done.path("id"));
        assertEquals("chain", done.path("type"));
        assertEquals("completed", done.path("state"));
        assertEquals(3, (int) done.path("metadata.job_count"));
        assertEquals(null, (Object) done.path("steps"));
    }

    @Test
    void aFailedStepFailsTheChainAndCancelsTheRest() {
        String wf = createId(obj("type", "chain", "steps",
                arr(job("s.fail", "wf-cf", "retry", failOnce()), job("s.never", "wf-cf"))));
        String id = fetchOne("w", "wf-cf");
        nack(id, error("handler_error", "boom")).then().statusCode(200);
        assertEquals(List.of(), fetchIds("w", 5, "wf-cf"));
        Response r = get(wf);
        assertEquals("failed", r.path("workflow.state"));
        assertEquals(List.of("failed", "cancelled"), r.path("workflow.steps.state"));
        assertEquals(0, (int) r.path("workflow.failed_step_index"));
        assertEquals(List.of(id), r.path("workflow.failed_job_ids"));
        assertEquals("cancelled", Api.state(r.path("workflow.steps[1].job_id")));
    }

    @Test
    void aRetryableFailureOfAStepIsNoWorkflowFailure() {
        String wf = createId(obj("type", "chain", "steps", arr(
                job("s.flaky", "wf-cr", "retry", Api.fixedRetry(2, "PT4M")), job("s.next", "wf-cr"))));
        String id = fetchOne("w", "wf-cr");
        nack(id, error("handler_error", "transient")).then().statusCode(200);
        assertEquals("retryable", Api.state(id));
        Response r = get(wf);
        assertEquals("running", r.path("workflow.state"));
        assertEquals(List.of("pending", "waiting"), r.path("workflow.steps.state"));
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
        assertEquals("running", get(wf).path("workflow.state"), "running until every job has finished");
        ack(ids.get(2)).then().statusCode(200);
        Response r = get(wf);
        assertEquals("failed", r.path("workflow.state"));
        assertEquals(3, (int) r.path("workflow.jobs_total"));
        assertEquals(2, (int) r.path("workflow.jobs_completed"));
        assertEquals(1, (int) r.path("workflow.jobs_failed"));
        assertEquals(List.of(ids.get(1)), r.path("workflow.failed_job_ids"));
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
        List<String> types = cbs.path("jobs.type");
        assertEquals(List.of("cb.done", "cb.ok"), types.stream().sorted().toList());
        assertEquals(List.of(obj("r", "a"), obj("r", "b")), cbs.path("jobs[0].parent_results"));
        assertEquals("running", get(wf).path("workflow.state"), "running while its callbacks run");
        List<String> cbIds = cbs.path("jobs.id");
        for (String cb : cbIds) {
            ack(cb).then().statusCode(200);
        }
        Response r = get(wf);
        assertEquals("completed", r.path("workflow.state"));
        assertEquals("cancelled", r.path("workflow.callbacks.on_failure.state"));
    }

    @Test
    void cancellingAWorkflowCancelsWhatHasNotStartedAndIsRefusedTheSecondTime() {
        String wf = createId(obj("type", "group", "jobs", arr(job("g.a", "wf-x"), job("g.b", "wf-x"))));
        String active = fetchOne("w", "wf-x");
        Response r = request().delete(WORKFLOWS + "/" + wf);
        r.then().statusCode(200);
        assertEquals("cancelled", r.path("workflow.state"));
        assertEquals(List.of(), fetchIds("w", 5, "wf-x"));
        ack(active).then().statusCode(200); // graceful: a running job may finish
        assertEquals("cancelled", get(wf).path("workflow.state"));
        Map<String, Object> e = assertError(request().delete(WORKFLOWS + "/" + wf), 409, "conflict");
        assertTrue(((String) e.get("message")).contains("cancelled"));
    }

    @Test
    void aStepCancelledOnItsOwnIsAccountedForByTheAdvancer() {
        String wf = createId(obj("type", "chain", "steps", arr(job("s.a", "wf-y"), job("s.b", "wf-y"))));
        String first = get(wf).path("workflow.steps[0].job_id");
        Api.cancel(first).then().statusCode(200);
        advancer.runOnce().await().indefinitely();
        Response r = get(wf);
        assertEquals("failed", r.path("workflow.state"));
        assertEquals(List.of("cancelled", "cancelled"), r.path("workflow.steps.state"));
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
