package dev.steadfast.grpc;

import static dev.steadfast.testsupport.Api.newUuidV7;
import static dev.steadfast.testsupport.GrpcCalls.assertStatus;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Value;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.GrpcCalls;
import io.grpc.Status;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openjobspec.ojs.v1.AckRequest;
import org.openjobspec.ojs.v1.CancelWorkflowRequest;
import org.openjobspec.ojs.v1.CreateWorkflowRequest;
import org.openjobspec.ojs.v1.GetWorkflowRequest;
import org.openjobspec.ojs.v1.WorkflowState;
import org.openjobspec.ojs.v1.WorkflowStep;
import org.openjobspec.ojs.v1.WorkflowStepState;
import org.openjobspec.ojs.v1.WorkflowStepStatus;
import org.openjobspec.ojs.v1.DeleteDeadLetterRequest;
import org.openjobspec.ojs.v1.EnqueueOptions;
import org.openjobspec.ojs.v1.EnqueueRequest;
import org.openjobspec.ojs.v1.FetchRequest;
import org.openjobspec.ojs.v1.GetJobRequest;
import org.openjobspec.ojs.v1.Job;
import org.openjobspec.ojs.v1.JobError;
import org.openjobspec.ojs.v1.JobState;
import org.openjobspec.ojs.v1.ListCronRequest;
import org.openjobspec.ojs.v1.ListDeadLetterRequest;
import org.openjobspec.ojs.v1.ListDeadLetterResponse;
import org.openjobspec.ojs.v1.ListQueuesRequest;
import org.openjobspec.ojs.v1.NackRequest;
import org.openjobspec.ojs.v1.OJSServiceGrpc.OJSServiceBlockingStub;
import org.openjobspec.ojs.v1.PauseQueueRequest;
import org.openjobspec.ojs.v1.QueueInfo;
import org.openjobspec.ojs.v1.QueueStatsRequest;
import org.openjobspec.ojs.v1.QueueStatsResponse;
import org.openjobspec.ojs.v1.RegisterCronRequest;
import org.openjobspec.ojs.v1.RegisterCronResponse;
import org.openjobspec.ojs.v1.ResumeQueueRequest;
import org.openjobspec.ojs.v1.RetryDeadLetterRequest;
import org.openjobspec.ojs.v1.RetryPolicy;
import org.openjobspec.ojs.v1.UnregisterCronRequest;

/**
 * The operator RPCs of the gRPC binding (ojs-grpc-binding.md 4.1): queues and their stats, pause and resume, dead
 * letters (list, retry, delete), cron (register, list, unregister) and workflows (create, get, cancel), each seen
 * from the HTTP side as well.
 */
@QuarkusTest
class OjsGrpcOperationsTest {

    private GrpcCalls grpc;
    private OJSServiceBlockingStub ojs;

    @BeforeEach
    void setUp() {
        Api.reset();
        grpc = new GrpcCalls();
        ojs = grpc.stub();
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        grpc.close();
    }

    private static String queue() {
        return "grpc-ops-" + newUuidV7().substring(24);
    }

    private String push(String queue, int maxAttempts) {
        return ojs.enqueue(EnqueueRequest.newBuilder().setType("ops.job")
                .addArgs(Value.newBuilder().setStringValue(queue))
                .setOptions(EnqueueOptions.newBuilder().setQueue(queue).setRetry(RetryPolicy.newBuilder()
                        .setMaxAttempts(maxAttempts).setOnExhaustion("dead_letter"))).build()).getJob().getId();
    }

    /** A job that dead-letters on its first failure, failed over gRPC. */
    private String deadLetter(String queue) {
        String id = push(queue, 1);
        assertEquals(id, ojs.fetch(FetchRequest.newBuilder().addQueues(queue).setWorkerId("w").build())
                .getJobs(0).getId());
        assertEquals(JobState.JOB_STATE_DISCARDED, ojs.nack(NackRequest.newBuilder().setJobId(id)
                .setError(JobError.newBuilder().setMessage("broken")).build()).getState());
        return id;
    }

    @Test
    void queuesAreListedCountedPausedAndResumed() {
        String q = queue();
        push(q, 3);
        push(q, 3);
        List<QueueInfo> all = ojs.listQueues(ListQueuesRequest.getDefaultInstance()).getQueuesList();
        assertTrue(all.stream().anyMatch(i -> i.getName().equals(q) && !i.getPaused()), all.toString());
        // the depth counts (counted at every read in tests: steadfast.console.counts-max-age=PT0S)
        assertEquals(2, all.stream().filter(i -> i.getName().equals(q)).findFirst().orElseThrow().getAvailableCount());

        QueueStatsResponse stats = ojs.queueStats(QueueStatsRequest.newBuilder().setQueue(q).build());
        assertEquals(q, stats.getQueue());
        assertEquals(2, stats.getStats().getAvailable());
        assertFalse(stats.getStats().getPaused());

        ojs.pauseQueue(PauseQueueRequest.newBuilder().setQueue(q).build());
        assertTrue(ojs.queueStats(QueueStatsRequest.newBuilder().setQueue(q).build()).getStats().getPaused());
        assertEquals(Boolean.TRUE, path(Api.request().get(Api.QUEUES + "/" + q + "/stats"), "queue.paused"));
        // a paused queue hands out nothing, whichever binding asks
        assertEquals(0, ojs.fetch(FetchRequest.newBuilder().addQueues(q).build()).getJobsCount());
        ojs.resumeQueue(ResumeQueueRequest.newBuilder().setQueue(q).build());
        assertEquals(1, ojs.fetch(FetchRequest.newBuilder().addQueues(q).build()).getJobsCount());

        assertStatus(Status.Code.NOT_FOUND, "not_found",
                () -> ojs.queueStats(QueueStatsRequest.newBuilder().setQueue(queue()).build()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.pauseQueue(PauseQueueRequest.newBuilder().setQueue("Not A Queue!").build()));
    }

    @Test
    void deadLettersAreListedRetriedAndDeleted() {
        String q = queue();
        String first = deadLetter(q);
        String second = deadLetter(q);
        deadLetter(queue());

        ListDeadLetterResponse page = ojs.listDeadLetter(ListDeadLetterRequest.newBuilder().setQueue(q).build());
        assertEquals(2, page.getTotalCount());
        assertEquals(List.of(first, second).stream().sorted().toList(),
                page.getJobsList().stream().map(Job::getId).sorted().toList());
        assertEquals("broken", page.getJobs(0).getErrors(0).getMessage());
        ListDeadLetterResponse one = ojs.listDeadLetter(ListDeadLetterRequest.newBuilder().setQueue(q).setLimit(1)
                .build());
        assertEquals(1, one.getJobsCount());
        assertFalse(one.getNextCursor().isEmpty());

        Job retried = ojs.retryDeadLetter(RetryDeadLetterRequest.newBuilder().setJobId(first).build()).getJob();
        assertEquals(JobState.JOB_STATE_AVAILABLE, retried.getState());
        assertEquals("available", Api.state(first));
        ojs.deleteDeadLetter(DeleteDeadLetterRequest.newBuilder().setJobId(second).build());
        assertEquals(0, ojs.listDeadLetter(ListDeadLetterRequest.newBuilder().setQueue(q).build()).getTotalCount());

        assertStatus(Status.Code.NOT_FOUND, "not_found",
                () -> ojs.retryDeadLetter(RetryDeadLetterRequest.newBuilder().setJobId(second).build()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.listDeadLetter(ListDeadLetterRequest.newBuilder().setLimit(5000).build()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.deleteDeadLetter(DeleteDeadLetterRequest.getDefaultInstance()));
        assertEquals(JobState.JOB_STATE_AVAILABLE,
                ojs.getJob(GetJobRequest.newBuilder().setJobId(first).build()).getJob().getState());
    }

    @Test
    void cronSchedulesAreRegisteredListedAndUnregistered() {
        String q = queue();
        RegisterCronResponse r = ojs.registerCron(RegisterCronRequest.newBuilder().setName("grpc-nightly")
                .setCron("0 3 * * *").setTimezone("UTC").setType("report.nightly")
                .addArgs(Value.newBuilder().setNumberValue(7))
                .setOptions(EnqueueOptions.newBuilder().setQueue(q)).build());
        assertEquals("grpc-nightly", r.getName());
        assertTrue(r.hasNextRunAt());
        assertEquals(200, Api.request().get("/ojs/v1/cron/grpc-nightly").statusCode());

        var entries = ojs.listCron(ListCronRequest.getDefaultInstance()).getEntriesList();
        assertEquals(1, entries.size());
        assertEquals("0 3 * * *", entries.get(0).getCron());
        assertEquals("report.nightly", entries.get(0).getType());
        assertEquals(q, entries.get(0).getOptions().getQueue());
        assertEquals(7, entries.get(0).getArgs(0).getNumberValue());

        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request", () -> ojs.registerCron(RegisterCronRequest
                .newBuilder().setName("bad").setCron("not a cron").setType("t").build()));
        ojs.unregisterCron(UnregisterCronRequest.newBuilder().setName("grpc-nightly").build());
        assertEquals(0, ojs.listCron(ListCronRequest.getDefaultInstance()).getEntriesCount());
        assertStatus(Status.Code.NOT_FOUND, "not_found",
                () -> ojs.unregisterCron(UnregisterCronRequest.newBuilder().setName("grpc-nightly").build()));
    }

    @Test
    void aChainOfStepsRunsInOrderAndCanBeCancelled() {
        String q = queue();
        var created = ojs.createWorkflow(CreateWorkflowRequest.newBuilder().setName("grpc-chain")
                .addSteps(WorkflowStep.newBuilder().setId("fetch").setType("etl.fetch")
                        .setOptions(EnqueueOptions.newBuilder().setQueue(q)))
                .addSteps(WorkflowStep.newBuilder().setId("load").setType("etl.load").addDependsOn("fetch")
                        .setOptions(EnqueueOptions.newBuilder().setQueue(q))).build()).getWorkflow();
        assertEquals("grpc-chain", created.getName());
        assertEquals(WorkflowState.WORKFLOW_STATE_RUNNING, created.getState());
        assertEquals(List.of("etl.fetch", "etl.load"),
                created.getStepsList().stream().map(WorkflowStepStatus::getType).toList());
        assertEquals(WorkflowStepState.WORKFLOW_STEP_STATE_PENDING, created.getSteps(0).getState());
        assertEquals(WorkflowStepState.WORKFLOW_STEP_STATE_WAITING, created.getSteps(1).getState());
        assertEquals(200, Api.request().get("/ojs/v1/workflows/" + created.getId()).statusCode());

        // only the first step can run; acking it (over gRPC) releases the second
        List<Job> first = ojs.fetch(FetchRequest.newBuilder().addQueues(q).setCount(5).build()).getJobsList();
        assertEquals(List.of(created.getSteps(0).getJobId()), first.stream().map(Job::getId).toList());
        ojs.ack(AckRequest.newBuilder().setJobId(first.get(0).getId()).build());
        var got = ojs.getWorkflow(GetWorkflowRequest.newBuilder().setWorkflowId(created.getId()).build())
                .getWorkflow();
        assertEquals(WorkflowStepState.WORKFLOW_STEP_STATE_COMPLETED, got.getSteps(0).getState());

        var cancelled = ojs.cancelWorkflow(CancelWorkflowRequest.newBuilder().setWorkflowId(created.getId()).build())
                .getWorkflow();
        assertEquals(WorkflowState.WORKFLOW_STATE_CANCELLED, cancelled.getState());

        assertStatus(Status.Code.NOT_FOUND, "not_found",
                () -> ojs.getWorkflow(GetWorkflowRequest.newBuilder().setWorkflowId(newUuidV7()).build()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.getWorkflow(GetWorkflowRequest.getDefaultInstance()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request", () -> ojs.createWorkflow(
                CreateWorkflowRequest.newBuilder().addSteps(WorkflowStep.newBuilder().setType("no.id")).build()));
    }
}
