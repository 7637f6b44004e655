package dev.steadfast.packaged;

import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Parallel.Call;
import dev.steadfast.testsupport.Parallel;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Workflows with two real server processes on one database: the packaged application Quarkus launched, and a
 * second copy of the same jar started here. A chain's steps are fetched on one instance and acknowledged on the
 * other, each ACK sent to both at once; a group's and a batch's jobs are acknowledged concurrently, half on each
 * instance. Every step is advanced exactly once and a batch's callback is enqueued exactly once. No timing is
 * asserted: an ACK's answer comes after the workflow has advanced in the same transaction.
 */
@QuarkusIntegrationTest
@TestProfile(PackagedApp.class)
class WorkflowTwoInstancesIT {

    static final int JOBS = 30;
    static SecondInstance second;

    @BeforeAll
    static void startSecondInstance() throws Exception {
        PackagedApp.authorize();
        second = SecondInstance.shared();
    }

    static String first() {
        return "http://localhost:" + RestAssured.port;
    }

    static String other() {
        return second.base();
    }

    static JsonPath post(String base, String path, Object body) {
        HttpResponse<String> r = Parallel.send(List.of(new Call(base, path, body, PackagedApp.TOKEN))).get(0);
        assertEquals(path.endsWith("/workflows") ? 201 : 200, r.statusCode(), r::body);
        return JsonPath.from(r.body());
    }

    static JsonPath workflow(String base, String id) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(base + "/ojs/v1/workflows/" + id)).header("Authorization", "Bearer " + PackagedApp.TOKEN)
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r::body);
        return JsonPath.from(r.body());
    }

    static List<String> fetch(String base, String queue, int count) {
        return post(base, Api.FETCH, obj("queues", List.of(queue), "count", count, "worker_id", "it-w")).getList("jobs.id");
    }

    static Map<String, Object> job(String type, String queue) {
        return obj("type", type, "args", List.of(), "options", obj("queue", queue));
    }

    @Test
    void aChainAdvancesAcrossInstancesOnceStepByStep() throws Exception {
        String queue = "it-wf-chain-" + System.nanoTime();
        List<Object> steps = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            steps.add(job("it.step" + i, queue));
        }
        String wf = post(first(), "/ojs/v1/workflows", obj("type", "chain", "steps", steps)).getString("workflow.id");
        for (int i = 0; i < 6; i++) {
            String fetchOn = i % 2 == 0 ? first() : other();
            List<String> ids = fetch(fetchOn, queue, 5);
            assertEquals(1, ids.size(), "exactly one step available at step " + i);
            Object ack = obj("job_id", ids.get(0), "result", obj("step", i));
            List<HttpResponse<String>> answers = Parallel.send(List.of(new Call(first(), Api.ACK, ack, PackagedApp.TOKEN),
                    new Call(other(), Api.ACK, ack, PackagedApp.TOKEN)));
            assertEquals(1, answers.stream().filter(r -> r.statusCode() == 200).count(),
                    () -> "one ACK wins: " + answers.stream().map(HttpResponse::body).toList());
        }
        assertEquals(List.of(), fetch(first(), queue, 5));
        JsonPath w = workflow(other(), wf);
        assertEquals("completed", w.getString("workflow.state"));
        assertEquals(6, w.getInt("workflow.steps_completed"));
    }

    @Test
    void aGroupAndABatchCompletedConcurrentlyOnBothInstancesAdvanceOnce() throws Exception {
        String queue = "it-wf-group-" + System.nanoTime();
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            jobs.add(job("it.g", queue));
        }
        String group = post(first(), "/ojs/v1/workflows", obj("type", "group", "jobs", jobs)).getString("workflow.id");
        String batch = post(other(), "/ojs/v1/workflows", obj("type", "batch", "jobs", jobs,
                "callbacks", obj("on_complete", job("it.done", queue + "-cb"), "on_success", job("it.ok", queue + "-cb"))))
                .getString("workflow.id");
        List<String> ids = new ArrayList<>(fetch(first(), queue, JOBS));
        ids.addAll(fetch(other(), queue, JOBS));
        assertEquals(2 * JOBS, ids.size());
        List<Call> calls = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            calls.add(new Call(i % 2 == 0 ? first() : other(), Api.ACK, obj("job_id", ids.get(i)), PackagedApp.TOKEN));
        }
        Parallel.send(calls).forEach(r -> assertEquals(200, r.statusCode(), r::body));
        assertEquals("completed", workflow(other(), group).getString("workflow.state"));
        assertEquals(JOBS, workflow(first(), group).getInt("workflow.jobs_completed"));
        List<String> callbacks = new ArrayList<>(fetch(first(), queue + "-cb", 10));
        callbacks.addAll(fetch(other(), queue + "-cb", 10));
        assertEquals(2, callbacks.size(), "on_complete and on_success, once each");
        for (String cb : callbacks) {
            post(cb.hashCode() % 2 == 0 ? first() : other(), Api.ACK, obj("job_id", cb));
        }
        JsonPath b = workflow(first(), batch);
        assertEquals("completed", b.getString("workflow.state"));
        assertEquals(JOBS, b.getInt("workflow.jobs_completed"));
    }

    @Test
    void nestedGroupsCompletedConcurrentlyOnBothInstancesAdvanceEachLevelOnce() throws Exception {
        String queue = "it-wf-nested-" + System.nanoTime();
        List<Object> a = new ArrayList<>();
        List<Object> b = new ArrayList<>();
        for (int i = 0; i < JOBS / 2; i++) {
            a.add(job("it.a", queue));
            b.add(job("it.b", queue));
        }
        // chain [ group [ group(a), group(b) ], final ]
        String chain = post(first(), "/ojs/v1/workflows", obj("type", "chain", "steps", List.of(
                obj("type", "group", "jobs", List.of(obj("type", "group", "jobs", a), obj("type", "group", "jobs", b))),
                job("it.final", queue + "-final")))).getString("workflow.id");
        List<String> ids = new ArrayList<>(fetch(first(), queue, JOBS));
        ids.addAll(fetch(other(), queue, JOBS));
        assertEquals(JOBS, ids.size());
        List<Call> calls = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            calls.add(new Call(i % 2 == 0 ? first() : other(), Api.ACK, obj("job_id", ids.get(i)), PackagedApp.TOKEN));
        }
        Parallel.send(calls).forEach(r -> assertEquals(200, r.statusCode(), r::body));
        List<String> last = new ArrayList<>(fetch(first(), queue + "-final", 10));
        last.addAll(fetch(other(), queue + "-final", 10));
        assertEquals(1, last.size(), "the final step is enqueued exactly once");
        JsonPath w = workflow(other(), chain);
        assertEquals("completed", w.getString("workflow.steps[0].state"));
        post(other(), Api.ACK, obj("job_id", last.get(0)));
        JsonPath done = workflow(first(), chain);
        assertEquals("completed", done.getString("workflow.state"));
        assertEquals(JOBS + 1, done.getInt("workflow.metadata.job_count"), "every job of the three levels");
        assertEquals(JOBS + 1, done.getInt("workflow.metadata.completed_count"));
        assertEquals(done.getMap("workflow.metadata"), workflow(other(), chain).getMap("workflow.metadata"),
                "both instances report the same metadata");
    }

    @Test
    void failuresOnBothInstancesAreReportedOnceEachAcrossNesting() throws Exception {
        String queue = "it-wf-fail-" + System.nanoTime();
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            jobs.add(obj("type", "it.f", "args", List.of(i), "options", obj("queue", queue, "retry",
                    obj("max_attempts", 1))));
        }
        // chain [ group(jobs), never ]: a third of the group's jobs fail, half of them on each instance
        String chain = post(first(), "/ojs/v1/workflows", obj("type", "chain", "steps", List.of(
                obj("type", "group", "jobs", jobs), job("it.never", queue + "-never")))).getString("workflow.id");
        List<String> ids = new ArrayList<>(fetch(first(), queue, JOBS));
        ids.addAll(fetch(other(), queue, JOBS));
        assertEquals(JOBS, ids.size());
        List<Call> calls = new ArrayList<>();
        java.util.Set<String> failed = new java.util.HashSet<>();
        for (int i = 0; i < ids.size(); i++) {
            String base = i % 2 == 0 ? first() : other();
            if (i % 3 == 0) {
                failed.add(ids.get(i));
                calls.add(new Call(base, Api.NACK, obj("job_id", ids.get(i), "error",
                        obj("code", "handler_error", "message", "boom " + i)), PackagedApp.TOKEN));
            } else {
                calls.add(new Call(base, Api.ACK, obj("job_id", ids.get(i)), PackagedApp.TOKEN));
            }
        }
        Parallel.send(calls).forEach(r -> assertEquals(200, r.statusCode(), r::body));
        JsonPath w = workflow(first(), chain);
        assertEquals("failed", w.getString("workflow.state"));
        assertEquals(0, w.getInt("workflow.metadata.failed_step_index"));
        assertEquals(failed, new java.util.HashSet<>(w.getList("workflow.metadata.failed_job_ids", String.class)));
        assertEquals(failed.size(), w.getList("workflow.metadata.errors").size(), "each failure once");
        assertEquals(failed, new java.util.HashSet<>(w.getList("workflow.metadata.errors.job_id", String.class)));
        assertEquals(JOBS + 1, w.getInt("workflow.metadata.job_count"));
        assertEquals(failed.size(), w.getInt("workflow.metadata.failed_count"));
        assertEquals(JOBS - failed.size(), w.getInt("workflow.metadata.completed_count"));
        assertEquals(w.getMap("workflow.metadata"), workflow(other(), chain).getMap("workflow.metadata"),
                "both instances report the same metadata and errors");
        assertEquals(List.of(), fetch(other(), queue + "-never", 5), "the chain stopped");
    }
}
