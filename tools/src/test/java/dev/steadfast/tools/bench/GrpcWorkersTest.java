package dev.steadfast.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.tools.testsupport.FakeGrpcServer;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openjobspec.ojs.v1.AckRequest;
import org.openjobspec.ojs.v1.AckResponse;
import org.openjobspec.ojs.v1.FetchRequest;
import org.openjobspec.ojs.v1.FetchResponse;
import org.openjobspec.ojs.v1.Job;
import org.openjobspec.ojs.v1.OJSServiceGrpc;
import org.openjobspec.ojs.v1.StreamJobsRequest;

/**
 * The gRPC worker loops against a small OJS gRPC server of the test's own (h2c on a free port): Fetch hands out
 * waiting jobs, StreamJobs sends them while fewer than {@code max_concurrent} are unacknowledged, Ack frees a slot.
 */
class GrpcWorkersTest {

    private final Fake fake = new Fake();
    private FakeGrpcServer server;

    @BeforeEach
    void start() throws Exception {
        server = new FakeGrpcServer(fake);
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.close();
    }

    @Test
    void oneStreamTakesEveryJobNeverHoldingMoreThanMaxConcurrent() throws InterruptedException {
        Progress p = run(true, 1, 2000, 10);
        assertEquals(2000, p.completedCount());
        assertEquals(0, p.jobs.lost());
        assertEquals(0, p.failed.get(), p.firstError.get());
        assertTrue(fake.maxUnacked.get() <= 10, "unacked at once: " + fake.maxUnacked.get());
        assertEquals(Set.of("Bearer stf_test"), Set.copyOf(server.authorization));
    }

    @Test
    void unaryLoopsFetchAndAckEveryJob() throws InterruptedException {
        Progress p = run(false, 4, 1000, 10);
        assertEquals(1000, p.completedCount());
        assertEquals(0, p.jobs.duplicates(1));
        assertEquals(0, p.failed.get(), p.firstError.get());
    }

    @Test
    void grpcTransportsAreForW2Only() {
        assertEquals("grpc-stream", BenchOptions.parse(new String[] {"--transport", "grpc-stream", "--workload",
                "w2,stream-check"}).transport);
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[] {"--transport", "grpc",
                "--workload", "w4"}));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[] {"--transport", "grpc"}));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[] {"--transport", "h3",
                "--workload", "w2"}));
    }

    private Progress run(boolean stream, int workers, int jobs, int count) throws InterruptedException {
        List<String> ids = IntStream.range(0, jobs).mapToObj(i -> "job-" + i).toList();
        fake.waiting.addAll(ids);
        Progress p = new Progress(jobs);
        p.jobs.enqueued(ids);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (GrpcWorkers g = new GrpcWorkers("http://127.0.0.1:" + server.port(), "stf_test")) {
            List<Thread> loops = g.start(stream, workers, "q", p, count, 2, deadline);
            assertTrue(p.awaitSettled(deadline), "settled: " + p.completedCount() + " of " + jobs);
            WorkerLoop.join(loops, 5000);
            assertEquals(jobs, g.acked.get());
        }
        return p;
    }

    /** Jobs by id; StreamJobs keeps one slot per unacknowledged job. */
    private static final class Fake extends OJSServiceGrpc.OJSServiceImplBase {
        final Queue<String> waiting = new ConcurrentLinkedQueue<>();
        final Set<String> unacked = ConcurrentHashMap.newKeySet();
        final AtomicInteger maxUnacked = new AtomicInteger();
        volatile Semaphore slots = new Semaphore(0);

        @Override
        public void fetch(FetchRequest r, StreamObserver<FetchResponse> out) {
            FetchResponse.Builder f = FetchResponse.newBuilder();
            for (String id; f.getJobsCount() < r.getCount() && (id = waiting.poll()) != null; ) {
                f.addJobs(Job.newBuilder().setId(id).setQueue(r.getQueues(0)).setAttempt(1));
            }
            out.onNext(f.build());
            out.onCompleted();
        }

        @Override
        public void ack(AckRequest r, StreamObserver<AckResponse> out) {
            if (unacked.remove(r.getJobId())) {
                slots.release();
            }
            out.onNext(AckResponse.newBuilder().setAcknowledged(true).build());
            out.onCompleted();
        }

        @Override
        public void streamJobs(StreamJobsRequest r, StreamObserver<Job> out) {
            ServerCallStreamObserver<Job> call = (ServerCallStreamObserver<Job>) out;
            slots = new Semaphore(r.getMaxConcurrent());
            Thread t = new Thread(() -> {
                try {
                    while (!call.isCancelled()) {
                        if (!slots.tryAcquire(10, TimeUnit.MILLISECONDS)) {
                            continue;
                        }
                        String id = waiting.poll();
                        if (id == null) {
                            slots.release();
                            Thread.sleep(5);
                            continue;
                        }
                        unacked.add(id);
                        maxUnacked.accumulateAndGet(unacked.size(), Math::max);
                        call.onNext(Job.newBuilder().setId(id).setQueue(r.getQueues(0)).setAttempt(1).build());
                    }
                } catch (InterruptedException | RuntimeException e) {
                    // the client cut the stream
                }
            });
            t.setDaemon(true);
            t.start();
        }
    }
}
