package dev.steadfast.workflows;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetch;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.JsonPaths.path;
import static dev.steadfast.workflows.WorkflowApiTest.WORKFLOWS;
import static dev.steadfast.workflows.WorkflowApiTest.createId;
import static dev.steadfast.workflows.WorkflowApiTest.get;
import static dev.steadfast.workflows.WorkflowApiTest.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JsonPaths;
import dev.steadfast.testsupport.Parallel.Call;
import dev.steadfast.testsupport.Parallel;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Nested workflows (ojs-workflows.md 10): an inner workflow is a member of its outer one like a job, starts when
 * its turn comes with the results its place receives, and its outcome is the member's outcome, propagated in the
 * transaction that finished it; three levels are accepted, a fourth refused; cancel reaches every level; many
 * concurrent ACKs inside nested workflows advance each level exactly once.
 */
@QuarkusTest
class NestedWorkflowTest {

    @jakarta.inject.Inject
    dev.steadfast.workflows.WorkflowAdvancer advancer;

    @jakarta.inject.Inject
    io.quarkus.scheduler.Scheduler scheduler;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static Map<String, Object> group(Object... jobs) {
        return obj("type", "group", "jobs", arr(jobs));
    }

    static Map<String, Object> chain(Object... steps) {
        return obj("type", "chain", "steps", arr(steps));
    }

    @Test
    void aChainWithAGroupStepFansOutAndPassesAllResultsOn() {
        String wf = createId(chain(job("e.extract", "nw-a"),
                obj("type", "group", "name", "transforms", "jobs", arr(job("t.csv", "nw-a"), job("t.json", "nw-a"))),
                job("l.load", "nw-a")));
        Response created = get(wf);
        assertEquals("group", path(created, "workflow.steps[1].type"));
        String inner = path(created, "workflow.steps[1].workflow_id");
        assertEquals(List.of("pending", "waiting", "waiting"), path(created, "workflow.steps.state"));
        assertEquals("pending", path(get(inner), "workflow.state"), "the inner group waits for its turn");
        assertEquals(wf, path(get(inner), "workflow.parent_id"));

        Response first = fetch("w", 5, "nw-a");
        assertEquals(List.of("e.extract"), path(first, "jobs.type"));
        ack(path(first, "jobs[0].id"), "w", obj("rows", 3)).then().statusCode(200);
        Response fanned = fetch("w", 5, "nw-a");
        List<String> types = path(fanned, "jobs.type");
        assertEquals(List.of("t.csv", "t.json"), types.stream().sorted().toList(), "both transforms at once");
        assertEquals(List.of(obj("rows", 3)), path(fanned, "jobs[0].parent_results"));
        assertEquals(inner, path(fanned, "jobs[0].workflow_id"), "a job names its innermost workflow");
        assertEquals("running", path(get(inner), "workflow.state"));
        List<String> ids = path(fanned, "jobs.id");
        ack(ids.get(0), "w", obj("t", path(fanned, "jobs[0].type"))).then().statusCode(200);
        assertEquals(List.of(), fetchIds("w", 5, "nw-a"), "the load waits for the whole group");
        ack(ids.get(1), "w", obj("t", path(fanned, "jobs[1].type"))).then().statusCode(200);

        Response load = fetch("w", 5, "nw-a");
        assertEquals(List.of("l.load"), path(load, "jobs.type"));
        List<Object> parents = path(load, "jobs[0].parent_results");
        assertEquals(obj("rows", 3), parents.get(0));
        assertEquals(List.of(obj("t", "t.csv"), obj("t", "t.json")), parents.get(1),
                "the group's results, as an array indexed like its jobs");
        assertEquals("completed", path(get(inner), "workflow.state"));
        assertEquals("completed", path(get(wf), "workflow.steps[1].state"));
        ack(path(load, "jobs[0].id")).then().statusCode(200);
        assertEquals("completed", path(get(wf), "workflow.state"));
    }

    @Test
    void threeLevelsRunToTheEnd() {
        // chain [ group [ chain [x, y], z ], w ]
        String wf = createId(chain(group(chain(job("x", "nw-3"), job("y", "nw-3")), job("z", "nw-3")),
                job("w", "nw-3")));
        assertEquals(List.of("x", "z"), ackAll("nw-3"), "the first of each level at once");
        assertEquals("running", path(get(wf), "workflow.state"));
        assertEquals(List.of("y"), ackAll("nw-3"), "the inner chain's next step");
        assertEquals(List.of("w"), ackAll("nw-3"), "the outer chain's next step, once the group is done");
        Response done = get(wf);
        assertEquals("completed", path(done, "workflow.state"));
        assertEquals(List.of("completed", "completed"), path(done, "workflow.steps.state"));
        Map<String, Object> meta = path(done, "workflow.metadata");
        assertEquals(4, meta.get("job_count"), "x, y, z and w, at three levels");
        assertEquals(4, meta.get("completed_count"));
        assertEquals(0, meta.get("failed_count"));
        assertEquals(2, (int) path(done, "workflow.steps_completed"), "the suite's counters stay this level's members");
        assertTrue(Api.TIMESTAMP.matcher((String) meta.get("started_at")).matches());
        String group = path(done, "workflow.steps[0].workflow_id");
        assertEquals("completed", path(get(group), "workflow.state"));
        assertEquals("completed", path(get(path(get(group), "workflow.jobs[0].workflow_id")), "workflow.state"));
    }

    /** Fetches what is available in {@code queue}, acknowledges it all, and answers its types, sorted. */
    private static List<String> ackAll(String queue) {
        Response r = fetch("w", 10, queue);
        List<String> ids = path(r, "jobs.id");
        for (String id : ids) {
            ack(id).then().statusCode(200);
        }
        return JsonPaths.<List<String>>path(r, "jobs.type").stream().sorted().toList();
    }

    @Test
    void aFailedInnerWorkflowFailsTheOuterChainAndCancelsTheRest() {
        String wf = createId(chain(group(job("g.bad", "nw-f", "retry", obj("max_attempts", 1)), job("g.ok", "nw-f")),
                group(job("later.a", "nw-f"), job("later.b", "nw-f")), job("end", "nw-f")));
        Response r0 = get(wf);
        String second = path(r0, "workflow.steps[1].workflow_id");
        Response jobs = fetch("w", 5, "nw-f");
        for (int i = 0; i < 2; i++) {
            String id = path(jobs, "jobs[" + i + "].id");
            if (path(jobs, "jobs[" + i + "].type").equals("g.bad")) {
                nack(id, error("handler_error", "boom")).then().statusCode(200);
            } else {
                ack(id).then().statusCode(200);
            }
        }
        Response r = get(wf);
        assertEquals("failed", path(r, "workflow.state"));
        assertEquals(List.of("failed", "cancelled", "cancelled"), path(r, "workflow.steps.state"));
        assertEquals("cancelled", path(get(second), "workflow.state"), "the waiting inner group is cancelled");
        for (String id : JsonPaths.<List<String>>path(get(second), "workflow.jobs.job_id")) {
            assertEquals("cancelled", state(id));
        }
        assertEquals(List.of(), fetchIds("w", 5, "nw-f"));
        String first = path(r, "workflow.steps[0].workflow_id");
        String bad = null;
        for (int i = 0; i < 2; i++) {
            if (path(jobs, "jobs[" + i + "].type").equals("g.bad")) {
                bad = path(jobs, "jobs[" + i + "].id");
            }
        }
        int badIndex = JsonPaths.<List<String>>path(get(first), "workflow.jobs.job_id").indexOf(bad);
        // 9.6 across nesting: the outer chain names its failed step and the inner job that failed, with its error.
        for (String at : List.of("workflow", "workflow.metadata", "metadata")) {
            assertEquals(0, (int) r.path(at + ".failed_step_index"), at);
            assertEquals(List.of(bad), r.path(at + ".failed_job_ids"), at);
            Map<String, Object> e = r.path(at + ".errors[0]");
            assertEquals(bad, e.get("job_id"));
            assertEquals(first, e.get("workflow_id"), "the nested workflow the job is in");
            assertEquals(badIndex, e.get("step_index"));
            assertEquals("handler_error", e.get("code"));
            assertEquals("boom", e.get("message"));
            assertEquals(1, e.get("attempt"));
        }
        Map<String, Object> m = path(r, "workflow.metadata");
        assertEquals(5, m.get("job_count"), "every job of the tree: 2 + 2 + 1");
        assertEquals(1, m.get("completed_count"));
        assertEquals(1, m.get("failed_count"));
        assertTrue(Api.TIMESTAMP.matcher((String) m.get("started_at")).matches());
        Response inner = get(first);
        assertEquals(List.of(bad), path(inner, "workflow.metadata.failed_job_ids"), "the inner group reports it too");
        assertEquals(null, (Object) path(inner, "workflow.metadata.errors[0].workflow_id"), "its own job");
        assertEquals(null, (Object) path(inner, "workflow.metadata.failed_step_index"), "a group has no step index");
        assertEquals(m.get("started_at"), path(inner, "workflow.metadata.started_at"));
        Map<String, Object> later = path(get(second), "workflow.metadata");
        assertEquals(2, later.get("job_count"));
        assertEquals(null, later.get("started_at"), "cancelled before its turn: no job of it started");
        assertEquals(null, later.get("errors"), "cancelled, not failed");
    }

    @Test
    void cancellingReachesEveryLevelAndAnInnerCancelFailsTheOuterChain() {
        String root = createId(group(chain(job("c.a", "nw-c"), job("c.b", "nw-c")), job("c.z", "nw-c")));
        String inner = path(get(root), "workflow.jobs[0].workflow_id");
        request().delete(WORKFLOWS + "/" + root).then().statusCode(200);
        assertEquals("cancelled", path(get(inner), "workflow.state"));
        assertEquals(List.of(), fetchIds("w", 5, "nw-c"), "nothing of any level runs");

        String outer = createId(chain(group(job("d.a", "nw-d")), job("d.next", "nw-d")));
        String group = path(get(outer), "workflow.steps[0].workflow_id");
        request().delete(WORKFLOWS + "/" + group).then().statusCode(200);
        Response r = get(outer);
        assertEquals("failed", path(r, "workflow.state"), "a cancelled step fails its chain");
        assertEquals(List.of("cancelled", "cancelled"), path(r, "workflow.steps.state"));
    }

    @Test
    void anInnerJobFinishedOutsideAnAckIsAccountedForByTheAdvancerUpToTheTop() {
        String wf = createId(chain(group(job("o.a", "nw-o")), job("o.next", "nw-o")));
        String group = path(get(wf), "workflow.steps[0].workflow_id");
        String a = path(get(group), "workflow.jobs[0].job_id");
        // The scheduled advancer, running beside the test, could hold the workflow's rows (SKIP LOCKED) at the very
        // moment runOnce looks, and runOnce would pass them over: paused, so runOnce is the one that advances.
        scheduler.pause(dev.steadfast.maintenance.MaintenanceHealth.WORKFLOW_ADVANCER);
        try {
            Api.cancel(a).then().statusCode(200);
            advancer.runOnce().await().indefinitely();
        } finally {
            scheduler.resume(dev.steadfast.maintenance.MaintenanceHealth.WORKFLOW_ADVANCER);
        }
        assertEquals("failed", path(get(group), "workflow.state"));
        Response r = get(wf);
        assertEquals("failed", path(r, "workflow.state"));
        assertEquals(List.of("failed", "cancelled"), path(r, "workflow.steps.state"));
    }

    @Test
    void concurrentAcksInsideNestedGroupsAdvanceEachLevelOnce() {
        int jobs = 20;
        List<Object> a = new ArrayList<>();
        List<Object> b = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            a.add(job("p.a", "nw-p"));
            b.add(job("p.b", "nw-p"));
        }
        // chain [ group [ group(a...), group(b...) ], final ]: 40 ACKs at once finish two groups, their group,
        // and enqueue the final step exactly once.
        String wf = createId(chain(group(obj("type", "group", "jobs", a), obj("type", "group", "jobs", b)),
                job("p.final", "nw-p-final")));
        List<String> ids = fetchIds("w", 2 * jobs, "nw-p");
        assertEquals(2 * jobs, ids.size());
        String base = "http://localhost:" + RestAssured.port;
        List<Call> calls = new ArrayList<>();
        for (String id : ids) {
            calls.add(new Call(base, Api.ACK, obj("job_id", id, "result", obj("id", id)), null));
        }
        for (HttpResponse<String> r : Parallel.send(calls)) {
            assertEquals(200, r.statusCode(), r::body);
        }
        Response fin = fetch("w", 5, "nw-p-final");
        assertEquals(1, JsonPaths.<List<String>>path(fin, "jobs.id").size(), "the final step is enqueued once");
        List<?> parents = path(fin, "jobs[0].parent_results");
        assertEquals(1, parents.size());
        assertEquals(2, ((List<?>) parents.get(0)).size(), "one entry per inner group");
        Response r = get(wf);
        assertEquals("running", path(r, "workflow.state"));
        assertEquals(List.of("completed", "active"), path(r, "workflow.steps.state"));
        ack(path(fin, "jobs[0].id")).then().statusCode(200);
        assertEquals("completed", path(get(wf), "workflow.state"));
    }
}
