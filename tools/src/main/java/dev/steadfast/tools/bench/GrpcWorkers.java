package dev.steadfast.tools.bench;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.openjobspec.ojs.v1.AckRequest;
import org.openjobspec.ojs.v1.AckResponse;
import org.openjobspec.ojs.v1.FetchRequest;
import org.openjobspec.ojs.v1.FetchResponse;
import org.openjobspec.ojs.v1.Job;
import org.openjobspec.ojs.v1.OJSServiceGrpc;
import org.openjobspec.ojs.v1.StreamJobsRequest;

/**
 * W2's worker loops over the OJS gRPC binding ({@code --transport grpc|grpc-stream}), on one h2c channel to the
 * server's HTTP port with {@code authorization: Bearer <token>}. {@code grpc}: each loop calls Fetch (unary,
 * --fetch-count jobs), then Ack per job (unary, --ack-concurrency in flight, all answered before the next Fetch), as
 * {@link WorkerLoop} does over HTTP. {@code grpc-stream}: each loop holds one StreamJobs with {@code max_concurrent}
 * = --fetch-count and ACKs each job as it arrives with the unary Ack; a stream that ends before the run is done is
 * opened again. Books deliveries and ACKs in the run's {@link Progress}; counts jobs received and acked and the
 * longest gap between two jobs received (from the first one on), the figure of a stream that stalls. The channel runs
 * the callbacks on its own event loop ({@code directExecutor}): they only book and send, never block; handed to the
 * default executor's pool instead, each hopped threads, which doubled the tool's CPU a streamed job.
 */
final class GrpcWorkers implements AutoCloseable {

    private final ManagedChannel channel;
    private final OJSServiceGrpc.OJSServiceBlockingStub blocking;
    private final OJSServiceGrpc.OJSServiceStub async;
    final AtomicInteger received = new AtomicInteger();
    final AtomicInteger acked = new AtomicInteger();
    final AtomicInteger streamsOpened = new AtomicInteger();
    private final AtomicLong lastJob = new AtomicLong();
    private final AtomicLong longestGap = new AtomicLong();

    GrpcWorkers(String url, String token) {
        URI u = URI.create(url);
        int port = u.getPort() >= 0 ? u.getPort() : u.getScheme().equals("https") ? 443 : 80;
        this.channel = Grpc.newChannelBuilderForAddress(u.getHost(), port, InsecureChannelCredentials.create())
                .directExecutor()
                .build();
        Metadata headers = new Metadata();
        if (token != null && !token.isEmpty()) {
            headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
        }
        this.blocking = OJSServiceGrpc.newBlockingStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
        this.async = OJSServiceGrpc.newStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    /** The longest time between two jobs received, in ms (0 before the second). */
    double longestGapMs() {
        return longestGap.get() / 1e6;
    }

    /** Starts {@code n} loops on daemon threads; each ends when the run is settled or at the deadline. */
    List<Thread> start(boolean stream, int n, String queue, Progress p, int fetchCount, int ackConc, long deadline) {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String worker = "bench-" + ProcessHandle.current().pid() + "-" + queue + "-g" + i;
            Runnable loop = stream ? () -> streamLoop(worker, queue, p, fetchCount, deadline)
                    : () -> fetchLoop(worker, queue, p, fetchCount, ackConc, deadline);
            Thread t = new Thread(loop, (stream ? "stream-" : "grpc-") + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        return threads;
    }

    private void fetchLoop(String worker, String queue, Progress p, int count, int ackConc, long deadline) {
        FetchRequest fetch = FetchRequest.newBuilder().addQueues(queue).setCount(count).setWorkerId(worker).build();
        Semaphore inFlight = new Semaphore(ackConc);
        int errorsInARow = 0, emptyInARow = 0;
        try {
            while (System.nanoTime() < deadline && errorsInARow < 20 && !p.settled()) {
                FetchResponse f;
                try {
                    f = blocking.withDeadlineAfter(30, TimeUnit.SECONDS).fetch(fetch);
                } catch (StatusRuntimeException e) {
                    p.failed("Fetch: " + e.getStatus());
                    errorsInARow++;
                    Thread.sleep(10);
                    continue;
                } finally {
                    p.fetchRequests.incrementAndGet();
                }
                errorsInARow = 0;
                if (f.getJobsCount() == 0) {
                    p.emptyFetches.incrementAndGet();
                    Thread.sleep(1L << Math.min(6, emptyInARow++));
                    continue;
                }
                emptyInARow = 0;
                for (Job j : f.getJobsList()) {
                    if (received(j, p)) {
                        inFlight.acquire();
                        ack(j.getId(), p, inFlight::release);
                    }
                }
                inFlight.acquire(ackConc);
                inFlight.release(ackConc);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void streamLoop(String worker, String queue, Progress p, int maxConcurrent, long deadline) {
        StreamJobsRequest req = StreamJobsRequest.newBuilder().addQueues(queue).setWorkerId(worker)
                .setMaxConcurrent(maxConcurrent).build();
        int errorsInARow = 0;
        try {
            while (System.nanoTime() < deadline && errorsInARow < 20 && !p.settled()) {
                CountDownLatch ended = new CountDownLatch(1);
                ClientCallStreamObserver<?>[] call = new ClientCallStreamObserver<?>[1];
                Status[] end = new Status[1];
                streamsOpened.incrementAndGet();
                async.streamJobs(req, new ClientResponseObserver<StreamJobsRequest, Job>() {
                    @Override
                    public void beforeStart(ClientCallStreamObserver<StreamJobsRequest> r) {
                        call[0] = r;
                    }

                    @Override
                    public void onNext(Job j) {
                        if (received(j, p)) {
                            ack(j.getId(), p, () -> { });
                        }
                    }

                    @Override
                    public void onError(Throwable t) {
                        end[0] = Status.fromThrowable(t);
                        ended.countDown();
                    }

                    @Override
                    public void onCompleted() {
                        end[0] = Status.OK;
                        ended.countDown();
                    }
                });
                while (!p.settled() && System.nanoTime() < deadline && !ended.await(5, TimeUnit.MILLISECONDS)) {
                    // the stream delivers; ACKs are sent from its callbacks
                }
                if (ended.getCount() > 0) {
                    call[0].cancel("run settled", null);
                    return;
                }
                if (!end[0].isOk() && !p.settled()) {
                    p.failed("StreamJobs ended: " + end[0]);
                    errorsInARow++;
                    Thread.sleep(10);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Books a delivery; false for a duplicate (counted, not answered). */
    private boolean received(Job j, Progress p) {
        long now = System.nanoTime(), last = lastJob.getAndSet(now);
        if (last != 0) {
            longestGap.accumulateAndGet(now - last, Math::max);
        }
        received.incrementAndGet();
        return p.jobs.delivered(j.getId()) <= 1;
    }

    private void ack(String id, Progress p, Runnable after) {
        long t0 = System.nanoTime();
        async.withDeadlineAfter(30, TimeUnit.SECONDS).ack(AckRequest.newBuilder().setJobId(id).build(),
                new StreamObserver<AckResponse>() {
                    @Override
                    public void onNext(AckResponse r) {
                        p.ackLatency.record(System.nanoTime() - t0);
                        acked.incrementAndGet();
                        p.complete(id);
                    }

                    @Override
                    public void onError(Throwable t) {
                        p.failed("Ack " + id + ": " + Status.fromThrowable(t));
                        p.gaveUp.incrementAndGet();
                        after.run();
                    }

                    @Override
                    public void onCompleted() {
                        after.run();
                    }
                });
    }

    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
