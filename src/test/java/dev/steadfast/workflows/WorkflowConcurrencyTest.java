package dev.steadfast.workflows;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Parallel.Call;
import dev.steadfast.testsupport.Parallel;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Workflows under concurrent ACKs and FAILs from parallel callers: every finished step is accounted for exactly
 * once, a batch's callbacks are enqueued exactly once, and a chain step acknowledged many times at once advances
 * the chain once. (The same with two server processes: packaged.WorkflowTwoInstancesIT.)
 */
@QuarkusTest
class WorkflowConcurrencyTest {

    static final int JOBS = 40;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static String base() {
        return "http://localhost:" + RestAssured.port;
    }

    @Test
    void concurrentAcksAndFailsOfABatchFireEachCallbackOnce() {
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            jobs.add(WorkflowApiTest.job("cc.job", "cc", "retry", obj("max_attempts", 1)));
        }
        String wf = WorkflowApiTest.createId(obj("type", "batch", "jobs", jobs, "callbacks", obj(
                "on_complete", WorkflowApiTest.job("cc.done", "cc-cb"),
                "on_failure", WorkflowApiTest.job("cc.fail", "cc-cb"),
                "on_success", WorkflowApiTest.job("cc.ok", "cc-cb"))));
        List<String> ids = fetchIds("w", JOBS, "cc");
        assertEquals(JOBS, ids.size());
        List<Call> calls = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            calls.add(i % 4 == 0
                    ? new Call(base(), Api.NACK, obj("job_id", ids.get(i), "error", Api.error("handler_error", "x")), null)
                    : new Call(base(), Api.ACK, obj("job_id", ids.get(i), "result", obj("i", i)), null));
        }
        for (HttpResponse<String> r : Parallel.send(calls)) {
            assertEquals(200, r.statusCode(), r::body);
        }
        List<String> callbacks = fetchIds("w", 10, "cc-cb");
        assertEquals(2, callbacks.size(), "on_complete and on_failure, once each");
        Response got = WorkflowApiTest.get(wf);
        assertEquals(JOBS - JOBS / 4, (int) path(got, "workflow.jobs_completed"));
        assertEquals(JOBS / 4, (int) path(got, "workflow.jobs_failed"));
        assertEquals("cancelled", path(got, "workflow.callbacks.on_success.state"));
        callbacks.forEach(id -> Api.ack(id).then().statusCode(200));
        assertEquals("completed", path(WorkflowApiTest.get(wf), "workflow.state"));
    }

    @Test
    void aChainStepAcknowledgedManyTimesAtOnceAdvancesTheChainOnce() {
        String wf = WorkflowApiTest.createId(obj("type", "chain", "steps", arr(
                WorkflowApiTest.job("cs.a", "cs"), WorkflowApiTest.job("cs.b", "cs"), WorkflowApiTest.job("cs.c", "cs"))));
        for (int step = 0; step < 3; step++) {
            List<String> ids = fetchIds("w", 5, "cs");
            assertEquals(1, ids.size(), "exactly one step is available");
            List<Call> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(new Call(base(), Api.ACK, obj("job_id", ids.get(0), "result", obj("step", step)), null));
            }
            long ok = Parallel.send(calls).stream().filter(r -> r.statusCode() == 200).count();
            assertEquals(1, ok, "one ACK completes the step, the others are refused");
        }
        assertEquals(List.of(), fetchIds("w", 5, "cs"));
        Response got = WorkflowApiTest.get(wf);
        assertEquals("completed", path(got, "workflow.state"));
        assertEquals(3, (int) path(got, "workflow.steps_completed"));
    }

    @Test
    void aGroupCompletedConcurrentlyWithItsCancelEndsOneWayOrTheOther() {
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            jobs.add(WorkflowApiTest.job("cg.job", "cg"));
        }
        String wf = WorkflowApiTest.createId(obj("type", "group", "jobs", jobs));
        List<String> ids = fetchIds("w", JOBS / 2, "cg");
        List<Call> calls = new ArrayList<>();
        ids.forEach(id -> calls.add(new Call(base(), Api.ACK, obj("job_id", id), null)));
        Thread cancel = new Thread(() -> Api.request().delete(WorkflowApiTest.WORKFLOWS + "/" + wf).then().statusCode(200));
        cancel.start();
        Parallel.send(calls).forEach(r -> assertEquals(200, r.statusCode(), r::body));
        try {
            cancel.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        Response got = WorkflowApiTest.get(wf);
        assertEquals("cancelled", path(got, "workflow.state"));
        assertEquals(JOBS / 2, (int) path(got, "workflow.jobs_completed"), "every active job finished and was counted");
        List<String> states = path(got, "workflow.jobs.state");
        assertEquals(JOBS / 2, states.stream().filter("cancelled"::equals).count(), "the rest were cancelled");
        assertEquals(List.of(), fetchIds("w", JOBS, "cg"));
    }
}
