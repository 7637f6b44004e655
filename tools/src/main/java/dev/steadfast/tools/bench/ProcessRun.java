package dev.steadfast.tools.bench;

import static dev.steadfast.tools.bench.Bench.secs;

import dev.steadfast.tools.ojs.Answers;
import dev.steadfast.tools.ojs.NewJob;
import dev.steadfast.tools.ojs.OjsAnswer;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * W2 / W4 (and their -batch variants): --jobs jobs bulk-enqueued first (not timed); then --workers loops fetch
 * --fetch-count each and ack (W4: fail attempt 1, ack attempt 2) until all are completed. Elapsed = loops
 * started until the last job's ACK answered. W2 with {@code --transport grpc|grpc-stream} runs its loops over gRPC
 * ({@link GrpcWorkers}); {@code stream-check} is W2 through one StreamJobs (10,000 jobs, max_concurrent 10 by
 * default) that must never stall.
 */
final class ProcessRun {

    private final Bench b;
    private final BenchOptions opt;

    ProcessRun(Bench bench) {
        this.b = bench;
        this.opt = bench.opt();
    }

    Outcome run(String w, String queue) throws InterruptedException {
        boolean check = w.equals("stream-check");
        boolean failOnce = w.startsWith("w4");
        boolean batchAck = w.endsWith("-batch");
        String transport = check ? "grpc-stream" : opt.transport;
        int jobs = opt.pick("--jobs", opt.jobs, check ? 10_000 : failOnce ? 5_000 : 20_000);
        int workers = opt.pick("--workers", opt.workers, check ? 1 : 8);
        int fetchCount = opt.pick("--fetch-count", opt.fetchCount, 10);
        int ackConc = opt.pick("--ack-concurrency", opt.ackConcurrency, 1);
        int waitMs = Math.max(0, opt.waitMs);
        if (batchAck) {
            String why = Workloads.batchAckSupported(b);
            if (why != null) {
                return Outcome.skipped(w, why + ", batch ACK extension not supported");
            }
        }
        Progress p = new Progress(jobs);
        NewJob.RetryPolicy retry = failOnce ? Bench.retryPolicy(opt.retryInterval) : null;
        long tEnq = System.nanoTime();
        String interval = preEnqueue(queue, jobs, retry, p);
        if (interval == null) {
            return Outcome.failed(w, jobs, p, "pre-enqueue failed");
        }
        System.out.printf(Locale.ROOT, "%-14s %d jobs pre-enqueued in %.2fs (not timed)%s%n", w,
                p.jobs.enqueuedCount(), secs(System.nanoTime() - tEnq),
                failOnce ? " retry.initial_interval=" + interval : "");
        ShellCommands.beforeTiming(opt.beforeTiming, w);

        StatsWindow win = StatsWindow.open(opt);
        PhaseResult r = new PhaseResult(w, jobs, b.serverPid());
        long deadline = r.deadline(opt.timeout);
        GrpcWorkers grpc = transport.equals("http") ? null : new GrpcWorkers(opt.url, opt.token);
        List<Thread> loops = grpc == null ? WorkerLoop.start(b.client(), workers, queue, p,
                new WorkerLoop.Shape(failOnce, batchAck, fetchCount, ackConc, waitMs), deadline)
                : grpc.start(transport.equals("grpc-stream"), workers, queue, p, fetchCount, ackConc, deadline);
        boolean done = p.awaitSettled(deadline);
        long end = p.doneNanos != 0 ? p.doneNanos : System.nanoTime();
        r.jobsDone.set(p.completedCount());
        r.finish(!done);
        r.nanos = end - r.t0;
        win.end();
        WorkerLoop.join(loops, 2000);
        if (grpc != null) {
            grpc.close();
        }
        Outcome o = Outcome.of(check || grpc == null ? w : w + "-" + transport, jobs, r, p);
        o.lost = p.jobs.lost();
        o.duplicates = p.jobs.duplicates(failOnce ? 2 : 1);
        if (grpc != null) {
            o.extra.put("transport", transport);
        }
        if (grpc != null && transport.equals("grpc-stream")) {
            streamFigures(o, grpc, workers, fetchCount, jobs, check);
            o.requestLatency(p.ackLatency);
            win.settleInto(o);
            return o;
        }
        if (failOnce) {
            int once = p.jobs.completedAfterDeliveries(1);
            o.extra.put("completed_without_retry", once);
            if (once > 0) {
                o.notes.add(once + " jobs completed on their first delivery (expected a retry)");
            }
            o.bad |= once > 0;
            o.extra.put("retry_initial_interval", interval);
        }
        o.extra.put("workers", workers);
        o.extra.put("fetch_count", fetchCount);
        o.extra.put("ack", batchAck ? "batch" : "per-job");
        if (!batchAck) {
            o.extra.put("ack_concurrency", ackConc);
        }
        if (grpc == null) {
            o.extra.put("wait_ms", waitMs);
        }
        o.extra.put("fetches", p.fetchRequests.get());
        o.extra.put("empty_fetches", p.emptyFetches.get());
        o.requestLatency(p.ackLatency);
        win.settleInto(o);
        return o;
    }

    /**
     * StreamJobs' figures: the streams' shape, jobs received and acked, streams opened (more than one per worker
     * when the server ended one), and the longest gap between two jobs received; with stream-check a gap of
     * 5 s or more (the server's own recheck of a full stream) or a job not received marks the run bad.
     */
    private static void streamFigures(Outcome o, GrpcWorkers g, int workers, int maxConcurrent, int jobs,
                                      boolean check) {
        o.extra.put("streams", workers);
        o.extra.put("max_concurrent", maxConcurrent);
        o.extra.put("ack", "per-job (unary Ack)");
        o.extra.put("received", g.received.get());
        o.extra.put("acked", g.acked.get());
        o.extra.put("streams_opened", g.streamsOpened.get());
        o.extra.put("longest_gap_ms", Bench.round2(g.longestGapMs()));
        if (check) {
            boolean stalled = g.acked.get() < jobs || g.longestGapMs() >= 5000;
            o.bad |= stalled;
            o.notes.add(String.format(Locale.ROOT, "%d of %d jobs received and acked through %d stream(s) of"
                    + " max_concurrent %d; longest gap between two jobs %.1f ms%s", g.acked.get(), jobs,
                    g.streamsOpened.get(), maxConcurrent, g.longestGapMs(), stalled ? ": STALLED" : ": no stall"));
        }
    }

    /**
     * Bulk-enqueues {@code jobs} jobs (1,000 per POST /jobs/batch, one at a time; single POSTs 16 in flight if
     * there is no batch endpoint). With a retry policy whose interval the server rejects (PT0S), retries once with
     * PT0.001S. Returns the interval used ("" without retry policy), or null on failure.
     */
    private String preEnqueue(String queue, int jobs, NewJob.RetryPolicy retry, Progress p)
            throws InterruptedException {
        String interval = retry == null ? "" : opt.retryInterval;
        for (int start = 0; start < jobs; ) {
            int size = Math.min(1000, jobs - start);
            OjsAnswer a = b.client().post(Bench.BATCH_PUSH, b.batch(queue, start, size, retry));
            if (a.status() == 404 || a.status() == 405) {
                return preEnqueueSingly(queue, start, jobs, retry, p) ? interval : null;
            }
            if ((a.status() == 400 || a.status() == 422) && start == 0 && retry != null
                    && !interval.equals("PT0.001S") && a.body().contains("initial_interval")) {
                System.out.println("note: server rejected retry.initial_interval " + interval + ", using PT0.001S");
                interval = "PT0.001S";
                retry = Bench.retryPolicy(interval);
                continue;
            }
            List<String> ids = a.status() == 201 ? Workloads.ids(a) : List.of();
            if (ids.size() != size) {
                p.failed(a);
                System.out.println("error: pre-enqueue: " + (a.body().length() > 300 ? a.body().substring(0, 300)
                        : a.body()));
                return null;
            }
            p.jobs.enqueued(ids);
            start += size;
        }
        return interval;
    }

    private boolean preEnqueueSingly(String queue, int from, int jobs, NewJob.RetryPolicy retry, Progress p)
            throws InterruptedException {
        PhaseResult r = new PhaseResult("pre-enqueue", jobs - from, b.serverPid());
        AtomicInteger next = new AtomicInteger(from);
        RequestDriver.sendAll(b.client(), r, opt.timeout, 16, () -> {
            int i = next.getAndIncrement();
            return i < jobs ? i : -1;
        }, i -> new RequestDriver.Req(Bench.PUSH, b.job(queue, i, retry)), (a, i) -> {
            String id = a.status() == 201 ? a.as(Answers.OneJob.class).map(j -> j.job() == null ? null : j.job().id())
                    .orElse(null) : null;
            if (id != null) {
                p.jobs.enqueued(id);
            } else {
                p.failed(a);
            }
        });
        return p.jobs.enqueuedCount() == jobs;
    }
}
