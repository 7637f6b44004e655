package dev.steadfast.workflows;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.info;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.maintenance.Batches;
import dev.steadfast.maintenance.Pruner;
import dev.steadfast.store.workflows.WorkflowStore;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Console;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Finished workflows are pruned past retention with their members' rows, never while one of their jobs is live;
 * the jobs they leave behind keep working; several pruners at once delete each workflow once.
 */
@QuarkusTest
class WorkflowRetentionTest {

    @Inject
    TestClock clock;

    private static final String WORKFLOWS = "/ojs/v1/workflows";

    @Inject
    Pruner pruner;

    @Inject
    WorkflowStore store;

    @Inject
    Pool pool;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static Response create(String type, String queue, int jobs) {
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            list.add(obj("type", "r.t", "args", arr(i), "options", obj("queue", queue)));
        }
        Response r = send(obj("type", type, type.equals("chain") ? "steps" : "jobs", list)).post(WORKFLOWS);
        assertEquals(201, r.statusCode(), r::asString);
        return r;
    }

    private static int status(String workflowId) {
        return request().get(WORKFLOWS + "/" + workflowId).statusCode();
    }

    private long memberRows(String workflowId) {
        return pool.preparedQuery("SELECT count(*) FROM workflow_jobs WHERE workflow_id = $1")
                .execute(Tuple.of(UUID.fromString(workflowId))).await().indefinitely().iterator().next().getLong(0);
    }

    private int prune(Instant at) {
        return pruner.pruneWorkflows(at).await().indefinitely();
    }

    @Test
    void aFinishedWorkflowIsPrunedPastRetentionAndALiveOneIsKept() {
        Response done = create("chain", "ret-done", 1);
        String doneId = path(done, "workflow.id");
        String doneJob = path(done, "workflow.steps[0].job_id");
        assertEquals(doneJob, fetchOne("w", "ret-done"));
        ack(doneJob).then().statusCode(200);
        assertEquals("completed", path(request().get(WORKFLOWS + "/" + doneId), "workflow.state"));

        Response cancelled = create("group", "ret-live", 2);
        String cancelledId = path(cancelled, "workflow.id");
        String active = fetchOne("w", "ret-live");
        request().delete(WORKFLOWS + "/" + cancelledId).then().statusCode(200);

        String runningId = path(create("chain", "ret-run", 2), "workflow.id");

        assertEquals(0, prune(clock.instant().plus(Duration.ofDays(1))), "within retention (7 days)");
        assertEquals(200, status(doneId));

        assertEquals(1, prune(clock.instant().plus(Duration.ofDays(8))));
        assertEquals(404, status(doneId));
        assertEquals(0, memberRows(doneId), "its member rows go with it");
        assertEquals(200, status(cancelledId), "a cancelled workflow whose member is still active is kept");
        assertEquals(200, status(runningId), "a running workflow is never pruned");

        assertEquals(doneId, jobView(doneJob).get("workflow_id"), "the job outlives its workflow and names it");
        Response page = Console.get("/admin/jobs/" + doneJob);
        assertEquals(200, page.statusCode());
        assertTrue(!page.asString().contains("id=\"workflow\""), "its page shows no workflow panel");

        ack(active).then().statusCode(200);
        assertEquals(1, prune(clock.instant().plus(Duration.ofDays(8))), "kept only while its job was live");
        assertEquals(404, status(cancelledId));
    }

    @Test
    void aNestedWorkflowGoesWithItsRootAndNeverAlone() {
        Response r = send(obj("type", "chain", "steps", arr(obj("type", "group", "jobs",
                arr(obj("type", "r.t", "args", arr(), "options", obj("queue", "ret-nest")))),
                obj("type", "r.t", "args", arr(), "options", obj("queue", "ret-nest"))))).post(WORKFLOWS);
        assertEquals(201, r.statusCode(), r::asString);
        String root = path(r, "workflow.id");
        String inner = path(r, "workflow.steps[0].workflow_id");
        ack(fetchOne("w", "ret-nest")).then().statusCode(200);
        assertEquals("completed", path(request().get(WORKFLOWS + "/" + inner), "workflow.state"));
        assertEquals(0, prune(clock.instant().plus(Duration.ofDays(8))), "a finished inner workflow stays with its root");
        assertEquals(200, status(inner));
        ack(fetchOne("w", "ret-nest")).then().statusCode(200);
        assertEquals(1, prune(clock.instant().plus(Duration.ofDays(8))));
        assertEquals(404, status(root));
        assertEquals(404, status(inner), "deleted with its root");
        assertEquals(0, memberRows(inner));
    }

    @Test
    void aJobWhoseWorkflowWasPrunedMeanwhileIsStillAcknowledgedAndFailed() {
        Response r = create("group", "ret-gone", 2);
        String wf = path(r, "workflow.id");
        List<String> ids = fetchIds("w", 2, "ret-gone");
        assertEquals(2, ids.size());
        // As when a dead letter revived after the check is pruned with its workflow: the row is gone, the job runs.
        pool.preparedQuery("DELETE FROM workflows WHERE id = $1").execute(Tuple.of(UUID.fromString(wf)))
                .await().indefinitely();
        ack(ids.get(0)).then().statusCode(200);
        assertEquals("completed", jobView(ids.get(0)).get("state"));
        nack(ids.get(1), error("handler_error", "boom")).then().statusCode(200);
        String failed = (String) jobView(ids.get(1)).get("state");
        assertTrue(failed.equals("retryable") || failed.equals("discarded"), failed);
        info(ids.get(1)).then().statusCode(200);
    }

    @Test
    void severalPrunersAtOnceDeleteEachWorkflowOnce() throws Exception {
        int workflows = 30;
        for (int i = 0; i < workflows; i++) {
            String id = path(create("group", "ret-many", 1), "workflow.id");
            request().delete(WORKFLOWS + "/" + id).then().statusCode(200);
        }
        Instant before = clock.instant().plus(Duration.ofDays(8));
        ExecutorService threads = Executors.newFixedThreadPool(6);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> results = new ArrayList<>();
        try {
            for (int t = 0; t < 6; t++) {
                results.add(threads.submit(() -> {
                    go.await();
                    return Batches.untilShort(() -> store.pruneFinished(before, 4), 4).await().indefinitely();
                }));
            }
            go.countDown();
            int total = 0;
            for (Future<Integer> f : results) {
                total += f.get();
            }
            assertEquals(workflows, total, "every workflow deleted exactly once");
        } finally {
            threads.shutdownNow();
        }
        long left = pool.query("SELECT count(*) FROM workflows").execute().await().indefinitely().iterator().next()
                .getLong(0);
        assertEquals(0, left);
    }
}
