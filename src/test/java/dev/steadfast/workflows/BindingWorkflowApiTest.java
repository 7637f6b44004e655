package dev.steadfast.workflows;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.fetch;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.JsonPaths.path;
import static dev.steadfast.workflows.WorkflowApiTest.create;
import static dev.steadfast.workflows.WorkflowApiTest.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Workflows in the HTTP binding's shape (steps with id and depends_on, no type), exactly as the official Java SDK
 * sends its chain, group and batch, and the workflow-level default options.
 */
@QuarkusTest
class BindingWorkflowApiTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    /** A step as the Java SDK writes it: id, type, args [map], options.queue, depends_on when it has any. */
    static Map<String, Object> step(String id, String type, String queue, String... deps) {
        Map<String, Object> s = obj("id", id, "type", type, "args", arr(obj("n", id)), "options", obj("queue", queue));
        if (deps.length > 0) {
            s.put("depends_on", arr((Object[]) deps));
        }
        return s;
    }

    static Response created(Object body) {
        Response r = create(body);
        assertEquals(201, r.statusCode(), r::asString);
        return r;
    }

    @Test
    void theJavaSdksChainRunsInDependencyOrderAndEchoesItsStepIds() {
        // written out of order: the dependencies, not the list, give the order
        Response r = created(obj("name", "c", "steps", arr(step("step_2", "s.c", "bw", "step_1"),
                step("step_0", "s.a", "bw"), step("step_1", "s.b", "bw", "step_0"))));
        assertEquals("chain", path(r, "workflow.type"));
        assertEquals("chain", path(r, "type"));
        assertEquals(List.of("step_0", "step_1", "step_2"), path(r, "workflow.steps.id"));
        assertEquals(List.of(List.of(), List.of("step_0"), List.of("step_1")), path(r, "workflow.steps.depends_on"));
        for (String type : List.of("s.a", "s.b", "s.c")) {
            Response f = fetch("w", 5, "bw");
            assertEquals(List.of(type), path(f, "jobs.type"), f::asString);
            ack(path(f, "jobs[0].id"), "w", obj("done", type)).then().statusCode(200);
        }
        Response done = get(path(r, "id"));
        assertEquals("completed", path(done, "state"));
        assertEquals(List.of("completed", "completed", "completed"), path(done, "workflow.steps.state"));
    }

    @Test
    void stepsWithoutDependenciesAreAGroupListedUnderStepsAndJobs() {
        Response r = created(obj("name", "g", "steps", arr(step("a", "g.a", "bg"), step("b", "g.b", "bg"))));
        assertEquals("group", path(r, "workflow.type"));
        assertEquals(List.of("a", "b"), path(r, "workflow.steps.id"));
        assertEquals(List.of("a", "b"), path(r, "workflow.jobs.id"));
        assertEquals(2, fetchIds("w", 5, "bg").size());
    }

    @Test
    void theJavaSdksBatchGetsItsCallbacks() {
        Response r = created(obj("name", "b", "steps", arr(step("step_0", "b.a", "bb"), step("step_1", "b.b", "bb"),
                step("on_complete", "b.done", "bb", "step_0", "step_1"),
                step("on_failure", "b.failed", "bb", "step_1", "step_0"))));
        assertEquals("batch", path(r, "workflow.type"));
        assertEquals(List.of("step_0", "step_1"), path(r, "workflow.jobs.id"));
        assertEquals("on_complete", path(r, "workflow.callbacks.on_complete.id"));
        assertEquals(List.of("step_0", "step_1"), path(r, "workflow.callbacks.on_complete.depends_on"));
        assertEquals(List.of("step_0", "step_1", "on_complete", "on_failure"), path(r, "workflow.steps.id"));
        for (String id : fetchIds("w", 5, "bb")) {
            ack(id, "w", null).then().statusCode(200);
        }
        Response cb = fetch("w", 5, "bb");
        assertEquals(List.of("b.done"), path(cb, "jobs.type"), cb::asString);
    }

    @Test
    void workflowOptionsAreDefaultsUnderEachJobsOwn() {
        Response r = created(obj("name", "o", "options", obj("queue", "bo-default", "priority", 7), "steps",
                arr(obj("id", "x", "type", "o.x", "args", arr()),
                        obj("id", "y", "type", "o.y", "args", arr(), "options", obj("queue", "bo-own")))));
        assertEquals(List.of("bo-default", "bo-own"), path(r, "workflow.jobs.queue"));
        Response f = fetch("w", 5, "bo-default");
        assertEquals(7, (int) path(f, "jobs[0].priority"), f::asString);
        // the primitive shape takes the same defaults
        Response c = created(obj("type", "chain", "options", obj("queue", "bo-chain"), "steps",
                arr(obj("type", "o.z", "args", arr()))));
        assertEquals(List.of("bo-chain"), path(c, "workflow.steps.queue"));
    }

    @Test
    void graphsThatAreNoPrimitiveAreRefusedNamingTheStepAndEnqueueNothing() {
        Map<String, Object> e = assertError(create(obj("steps", arr(step("a", "d.a", "bd"), step("b", "d.b", "bd"),
                step("c", "d.c", "bd", "a", "b")))), 422, "unsupported");
        assertTrue(((String) e.get("message")).contains("steps[2]"), e::toString);
        assertEquals("steps[2]", ((Map<?, ?>) e.get("details")).get("path"));
        assertError(create(obj("steps", arr(step("a", "d.a", "bd"), step("b", "d.b", "bd", "a"),
                step("c", "d.c", "bd", "a")))), 422, "unsupported");
        assertError(create(obj("steps", arr(step("a", "d.a", "bd", "b"), step("b", "d.b", "bd", "a")))), 400,
                "invalid_request");
        assertError(create(obj("steps", arr(step("a", "d.a", "bd"), step("a", "d.b", "bd")))), 400, "invalid_request");
        assertError(create(obj("steps", arr(step("a", "d.a", "bd", "zz")))), 400, "invalid_request");
        assertError(create(obj("steps", arr(obj("type", "d.a", "args", arr())))), 400, "invalid_request");
        assertError(create(obj("steps", arr(obj("id", "a", "type", "d.a", "args", arr(), "depends_on", "a")))), 400,
                "invalid_request");
        assertError(create(obj("steps", arr(obj("id", "", "type", "d.a", "args", arr())))), 400, "invalid_request");
        assertEquals(List.of(), fetchIds("w", 5, "bd"), "a refused workflow enqueues nothing");
    }
}
