package dev.steadfast.grpc;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.job;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.newUuidV7;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.GrpcCalls;
import dev.steadfast.testsupport.TestClock;
import dev.steadfast.work.LeaseReaper;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openjobspec.ojs.v1.Job;
import org.openjobspec.ojs.v1.JobError;
import org.openjobspec.ojs.v1.JobState;
import org.openjobspec.ojs.v1.NackRequest;
import org.openjobspec.ojs.v1.StreamJobsRequest;

/**
 * StreamJobs (ojs-grpc-binding.md 10.1): at most max_concurrent unanswered jobs per stream, a slot freed by an ACK
 * over HTTP or a NACK over gRPC; a paused queue delivers nothing and keeps the stream open; a stream cut mid-flight
 * leaves its job leased; bad input ends the stream with INVALID_ARGUMENT.
 */
@QuarkusTest
class GrpcStreamJobsTest {

    private GrpcCalls grpc;
    private Context.CancellableContext call;

    @BeforeEach
    void setUp() {
        Api.reset();
        grpc = new GrpcCalls();
        call = Context.current().withCancellation();
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        call.cancel(null);
        grpc.close();
    }

    private static String queue() {
        return "grpc-sj-" + newUuidV7().substring(24);
    }

    /** Opens a stream; its jobs go to the returned queue, its end to {@code ended}. */
    private BlockingQueue<Job> open(StreamJobsRequest r, CompletableFuture<Status> ended) {
        BlockingQueue<Job> got = new LinkedBlockingQueue<>();
        call.run(() -> grpc.async().streamJobs(r, new StreamObserver<>() {
            @Override
            public void onNext(Job j) {
                got.add(j);
            }

            @Override
            public void onError(Throwable t) {
                ended.complete(Status.fromThrowable(t));
            }

            @Override
            public void onCompleted() {
                ended.complete(Status.OK);
            }
        }));
        return got;
    }

    @Test
    void atMostMaxConcurrentUnansweredJobsAndAnAnswerOverEitherProtocolFreesASlot() throws Exception {
        String q = queue();
        Set<String> pushed = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            pushed.add(enqueue(job("stream.me", q)));
        }
        BlockingQueue<Job> got = open(StreamJobsRequest.newBuilder().addQueues(q).setWorkerId("w-stream")
                .setMaxConcurrent(2).build(), new CompletableFuture<>());
        Job first = got.poll(10, TimeUnit.SECONDS);
        Job second = got.poll(10, TimeUnit.SECONDS);
        assertNotNull(first);
        assertNotNull(second);
        assertEquals(JobState.JOB_STATE_ACTIVE, first.getState());
        assertTrue(pushed.contains(first.getId()) && pushed.contains(second.getId()));
        assertNull(got.poll(1500, TimeUnit.MILLISECONDS), "a third job while two are unanswered");
        assertEquals("w-stream", jobView(first.getId()).get("worker_id"));

        assertEquals(200, ack(first.getId(), "w-stream", null).statusCode()); // over HTTP
        Job third = got.poll(10, TimeUnit.SECONDS);
        assertNotNull(third, "no job after an ACK over HTTP freed a slot");
        assertNull(got.poll(1000, TimeUnit.MILLISECONDS), "a fourth job while two are unanswered");

        grpc.stub().nack(NackRequest.newBuilder().setJobId(second.getId()) // over gRPC
                .setError(JobError.newBuilder().setMessage("later")).build());
        Job fourth = got.poll(10, TimeUnit.SECONDS);
        assertNotNull(fourth, "no job after a NACK over gRPC freed a slot");
        assertEquals(4, Set.of(first.getId(), second.getId(), third.getId(), fourth.getId()).size());
    }

    @Test
    void aPausedQueueDeliversNothingAndTheStreamStaysOpen() throws Exception {
        String q = queue();
        Api.request().post(Api.QUEUES + "/" + q + "/pause").then().statusCode(200);
        String id = enqueue(job("paused", q));
        CompletableFuture<Status> ended = new CompletableFuture<>();
        BlockingQueue<Job> got = open(StreamJobsRequest.newBuilder().addQueues(q).setMaxConcurrent(3).build(),
                ended);
        assertNull(got.poll(1500, TimeUnit.MILLISECONDS));
        assertTrue(!ended.isDone(), "the stream ended: " + ended.getNow(null));
        Api.request().post(Api.QUEUES + "/" + q + "/resume").then().statusCode(200);
        Job j = got.poll(15, TimeUnit.SECONDS);
        assertNotNull(j, "nothing after the queue was resumed");
        assertEquals(id, j.getId());
    }

    @Test
    void aStreamCutMidFlightLeavesItsJobLeasedAndClaimsNoMore() throws Exception {
        String q = queue();
        String id = enqueue(job("cut", q));
        BlockingQueue<Job> got = open(StreamJobsRequest.newBuilder().addQueues(q).setWorkerId("w-cut")
                .setMaxConcurrent(2).build(), new CompletableFuture<>());
        assertEquals(id, got.poll(10, TimeUnit.SECONDS).getId());
        call.cancel(null); // the stream was waiting for a second job (a long-poll claim)
        String next = enqueue(job("cut", q));
        assertEquals("active", Api.state(id));
        assertEquals("w-cut", jobView(id).get("worker_id"));
        // whether or not the cut stream's last claim caught it (and handed it back), another worker soon gets it
        assertEquals(java.util.List.of(next), Api.fetchIdsSoon("w-other", 1, q));
        assertNull(got.poll(500, TimeUnit.MILLISECONDS));
    }

    @Test
    void badInputEndsTheStreamWithInvalidArgument() throws Exception {
        CompletableFuture<Status> ended = new CompletableFuture<>();
        open(StreamJobsRequest.newBuilder().setMaxConcurrent(1).build(), ended);
        assertEquals(Status.Code.INVALID_ARGUMENT, ended.get(10, TimeUnit.SECONDS).getCode());
    }

    @Inject
    TestClock clock;

    @Inject
    LeaseReaper reaper;

    /**
     * A worker killed while it holds streamed jobs (its connection gone without a word): the jobs keep their leases,
     * the lease expiry takes them back as failed attempts, and another worker runs each once; none is lost.
     */
    @Test
    void aWorkerKilledHoldingStreamedJobsLosesNone() throws Exception {
        String q = queue();
        Set<String> pushed = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            pushed.add(enqueue(Api.obj("type", "stream.killed", "args", Api.arr(i), "options", Api.obj("queue", q,
                    "visibility_timeout_ms", 60_000, "retry", Api.fixedRetry(3, "PT0.001S")))));
        }
        GrpcCalls doomed = new GrpcCalls();
        BlockingQueue<Job> got = new LinkedBlockingQueue<>();
        doomed.async().streamJobs(StreamJobsRequest.newBuilder().addQueues(q).setWorkerId("w-killed")
                .setMaxConcurrent(3).build(), new StreamObserver<>() {
                    @Override
                    public void onNext(Job j) {
                        got.add(j);
                    }

                    @Override
                    public void onError(Throwable t) {
                    }

                    @Override
                    public void onCompleted() {
                    }
                });
        Set<String> held = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            Job j = got.poll(10, TimeUnit.SECONDS);
            assertNotNull(j, "the stream delivered " + held.size() + " of 3");
            held.add(j.getId());
        }
        assertEquals(pushed, held);
        doomed.close(); // the worker is gone: its channel shut down at once, no answer for any job
        pushed.forEach(id -> assertEquals("active", Api.state(id)));

        assertEquals(3, (int) reaper.runOnce(clock.instant().plus(Duration.ofSeconds(61))).await().indefinitely());
        List<String> again = Api.fetchIds("w-after", 10, q);
        assertEquals(pushed, Set.copyOf(again));
        for (String id : again) {
            assertEquals(200, ack(id, "w-after", null).statusCode());
            Map<String, Object> view = jobView(id);
            assertEquals("completed", view.get("state"));
            assertEquals(2, view.get("attempt"));
            assertEquals("visibility_timeout", ((Map<?, ?>) ((List<?>) view.get("errors")).get(0)).get("type"));
        }
    }
}
