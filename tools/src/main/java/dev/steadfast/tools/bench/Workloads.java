package dev.steadfast.tools.bench;

import static dev.steadfast.tools.bench.Bench.secs;

import dev.steadfast.tools.measure.ServerMemory;
import dev.steadfast.tools.ojs.Answers;
import dev.steadfast.tools.ojs.OjsAnswer;
import dev.steadfast.tools.ojs.WorkerCalls;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The peer-comparable workloads ({@code --workload}, the peers' W1-W4 in ../shared/peers-bench), each on its
 * own fresh queue ({@code <--queue>-<workload>}) after the warm-up, each ending in its RESULT line. W1 is here;
 * W2/W4 in {@link ProcessRun} (and {@link DurationRun} with --duration), W3 in {@link LatencyRun}.
 */
final class Workloads {

    static final List<String> NAMES = List.of("w1-single", "w1-bulk", "w2", "w2-batch", "w3", "w4", "w4-batch",
            "stream-check");

    /** The most untimed runs --client-warmup makes before a workload's timed run. */
    static final int WARMUP_RUNS = 5;

    private final Bench b;
    private final BenchOptions opt;

    Workloads(Bench bench) {
        this.b = bench;
        this.opt = bench.opt();
    }

    int run() throws InterruptedException {
        System.out.printf(Locale.ROOT, "bench: url=%s workloads=%s queue prefix=%s%n", opt.url,
                String.join(",", opt.workloads), opt.queue);
        new Phases(b).warmup();
        int rc = 0;
        for (String w : opt.workloads) {
            if (opt.clientWarmup && opt.duration == 0) {
                warmUpClient(w);
            }
            Outcome o = one(w, opt.queue + "-" + w);
            rc = Math.max(rc, o.print(ServerMemory.read(b.serverPid(), System.out)));
        }
        return rc;
    }

    private Outcome one(String w, String queue) throws InterruptedException {
        return switch (w) {
            case "w1-single" -> w1Single(queue);
            case "w1-bulk" -> w1Bulk(queue);
            case "w2", "w2-batch" -> opt.duration > 0 ? new DurationRun(b).run(w, queue)
                    : new ProcessRun(b).run(w, queue);
            case "w4", "w4-batch", "stream-check" -> new ProcessRun(b).run(w, queue);
            case "w3" -> new LatencyRun(b).run(queue);
            default -> throw new IllegalStateException(w);
        };
    }

    /**
     * --client-warmup on: the workload untimed on its own side queue, with this tool's client and the options of
     * {@link BenchOptions#forClientWarmup}, until this JVM's JIT is quiet (a run whose compilation time is under a
     * tenth of its wall time; at most {@link #WARMUP_RUNS} runs), so the timed run meets compiled code instead of
     * timing this tool's interpreter and compiler threads (a cold run of W1 bulk took 0.9-1.3 of the machine's 2
     * cores in this tool alone, 60% of it in C2). Prints one line per run; no RESULT.
     */
    private void warmUpClient(String w) throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
        Workloads untimed = new Workloads(new Bench(opt.forClientWarmup(w), b.client(), b.serverPid()));
        String queue = opt.queue + "-" + w + "-warmup";
        for (int run = 1; run <= WARMUP_RUNS; run++) {
            long t0 = System.nanoTime();
            long c0 = timed ? jit.getTotalCompilationTime() : 0;
            Outcome o = untimed.one(w, queue);
            double wallMs = (System.nanoTime() - t0) / 1e6;
            long jitMs = timed ? jit.getTotalCompilationTime() - c0 : 0;
            System.out.printf(Locale.ROOT, "%-14s client warm-up %d: %d jobs in %.2fs, JIT %d ms, not timed%s%n", w,
                    run, o.jobs, wallMs / 1000, jitMs, o.lost + o.duplicates + o.failed == 0 ? "" : String.format(
                            Locale.ROOT, " (lost=%d duplicates=%d failed=%d)", o.lost, o.duplicates, o.failed));
            if (!timed || jitMs < wallMs / 10) {
                return;
            }
        }
    }

    /** W1 single: one job per POST /ojs/v1/jobs, --connections (default 16) in flight. */
    private Outcome w1Single(String queue) throws InterruptedException {
        int jobs = opt.pick("--jobs", opt.jobs, 20_000);
        int conc = opt.pick("--connections", opt.connections, 16);
        Progress p = new Progress(jobs);
        StatsWindow win = StatsWindow.open(opt);
        PhaseResult r = new PhaseResult("w1-single", jobs, b.serverPid());
        AtomicInteger next = new AtomicInteger();
        RequestDriver.sendAll(b.client(), r, opt.timeout, conc, () -> {
            int i = next.getAndIncrement();
            return i < jobs ? i : -1;
        }, i -> new RequestDriver.Req(Bench.PUSH, b.job(queue, i)), (a, i) -> {
            r.latency.record(a.nanos());
            String id = a.status() == 201 ? a.as(Answers.OneJob.class).map(j -> j.job() == null ? null : j.job().id())
                    .orElse(null) : null;
            if (id != null) {
                p.jobs.enqueued(id);
                r.addJobs(1);
            } else {
                p.failed(a);
            }
        });
        r.finish(next.get() < jobs);
        p.failed.addAndGet(r.errors.get()); // requests without an answer, recorded on r
        Outcome o = Outcome.of("w1-single", jobs, r, p);
        win.end();
        o.extra.put("in_flight", conc);
        o.requestLatency(r.latency);
        win.settleInto(o);
        return drainCheck(o, queue, p);
    }

    /** W1 bulk: POST /ojs/v1/jobs/batch with --batch (1,000) jobs each, --batch-in-flight (1) in flight. */
    private Outcome w1Bulk(String queue) throws InterruptedException {
        int jobs = opt.pick("--jobs", opt.jobs, 20_000);
        int batch = opt.pick("--batch", opt.batch, 1000);
        int inFlight = opt.batchInFlight > 0 ? opt.batchInFlight : 1;
        Progress p = new Progress(jobs);
        StatsWindow win = StatsWindow.open(opt);
        PhaseResult r = new PhaseResult("w1-bulk", jobs, b.serverPid());
        AtomicInteger next = new AtomicInteger();
        AtomicReference<String> unsupported = new AtomicReference<>();
        RequestDriver.sendAll(b.client(), r, opt.timeout, inFlight, () -> {
            int start = next.getAndAdd(batch);
            return start < jobs && unsupported.get() == null ? start : -1;
        }, start -> new RequestDriver.Req(Bench.BATCH_PUSH, b.batch(queue, start, Math.min(batch, jobs - start))),
           (a, start) -> {
               r.latency.record(a.nanos());
               if (a.status() == 404 || a.status() == 405) {
                   unsupported.set("POST /ojs/v1/jobs/batch returned " + a.status());
                   return;
               }
               List<String> ids = a.status() == 201 ? ids(a) : List.of();
               if (ids.size() == Math.min(batch, jobs - start)) {
                   p.jobs.enqueued(ids);
                   r.addJobs(ids.size());
               } else {
                   p.failed(a);
               }
           });
        r.finish(next.get() < jobs && unsupported.get() == null);
        win.end();
        if (unsupported.get() != null) {
            return Outcome.skipped("w1-bulk", unsupported.get() + ", batch enqueue not supported");
        }
        p.failed.addAndGet(r.errors.get());
        Outcome o = Outcome.of("w1-bulk", jobs, r, p);
        o.extra.put("batch", batch);
        o.extra.put("in_flight", inFlight);
        o.requestLatency(r.latency);
        win.settleInto(o);
        return drainCheck(o, queue, p);
    }

    /**
     * After a W1 run (not timed): fetch and ack everything the run enqueued, so "lost" (accepted but never
     * delivered) and "duplicates" (delivered twice) mean the same as for the other workloads.
     */
    private Outcome drainCheck(Outcome o, String queue, Progress enqueue) throws InterruptedException {
        if (!opt.drain) {
            o.lost = enqueue.target - enqueue.jobs.enqueuedCount();
            o.notes.add("--drain off: lost = jobs not accepted; deliveries not checked");
            return o;
        }
        long t0 = System.nanoTime();
        boolean batchAck = batchAckSupported(b) == null;
        Progress drain = new Progress(enqueue.jobs.enqueuedCount());
        drain.jobs.enqueued(enqueue.jobs.enqueuedIds());
        long deadline = t0 + opt.timeout * 1_000_000_000L;
        List<Thread> loops = WorkerLoop.start(b.client(), 8, queue, drain,
                new WorkerLoop.Shape(false, batchAck, 100, 16, 0), deadline);
        drain.awaitSettled(deadline);
        WorkerLoop.join(loops, 2000);
        o.lost = enqueue.target - enqueue.jobs.enqueuedCount() + drain.jobs.lost();
        o.duplicates = drain.jobs.duplicates(1);
        o.failed += drain.failed.get();
        o.notes.add(String.format(Locale.ROOT, "drain check (not timed): %d of %d accepted jobs fetched and acked in"
                + " %.1fs%s", drain.completedCount(), drain.target, secs(System.nanoTime() - t0),
                batchAck ? " with batch ACK" : ""));
        return o;
    }

    /** Null if POST /ojs/v1/workers/ack/batch exists, else why not (404/405 on an empty batch). */
    static String batchAckSupported(Bench b) {
        OjsAnswer a = b.client().post(WorkerCalls.BATCH_ACK, new WorkerCalls.BatchAck("bench-probe", List.of()));
        if (a.status() == 404 || a.status() == 405) {
            return "POST " + WorkerCalls.BATCH_ACK + " returned " + a.status();
        }
        if (a.failed()) {
            return "POST " + WorkerCalls.BATCH_ACK + " failed: " + a.body();
        }
        return null;
    }

    /** The ids of a batch PUSH answer (or a FETCH answer), in order. */
    static List<String> ids(OjsAnswer a) {
        return a.as(Answers.Jobs.class).map(j -> j.list().stream().map(Answers.Job::id).filter(Objects::nonNull).toList())
                .orElse(List.of());
    }
}
