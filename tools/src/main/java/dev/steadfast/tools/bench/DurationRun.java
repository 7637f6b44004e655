package dev.steadfast.tools.bench;

import static dev.steadfast.tools.bench.Bench.secs;

import dev.steadfast.tools.ojs.OjsAnswer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * --duration S (w2, w2-batch): the queue kept fed for S seconds. --backlog (5,000) jobs are enqueued first (not
 * timed); then the --workers loops run as in W2 while a feeder thread adds batches of 1,000 whenever fewer than
 * --backlog jobs wait. Completed jobs are counted per --window (15 s) and printed as each window closes. Bounded
 * in time (after S seconds the loops stop fetching and the feeder stops) and in count (at most --jobs, default
 * 1,000,000, are enqueued; when all of them are completed before S seconds, the run ends there). Afterwards, not
 * timed, the jobs still waiting are fetched and acked so that lost and duplicates mean what they mean in W2. The
 * database counters (--pg-stats) include the feeder's enqueues. The ledger prunes completed jobs.
 */
final class DurationRun {

    private final Bench b;
    private final BenchOptions opt;

    DurationRun(Bench bench) {
        this.b = bench;
        this.opt = bench.opt();
    }

    Outcome run(String w, String queue) throws InterruptedException {
        boolean batchAck = w.endsWith("-batch");
        int cap = opt.pick("--jobs", opt.jobs, 1_000_000);
        int workers = opt.pick("--workers", opt.workers, 8);
        int fetchCount = opt.pick("--fetch-count", opt.fetchCount, 10);
        int ackConc = opt.pick("--ack-concurrency", opt.ackConcurrency, 1);
        int waitMs = Math.max(0, opt.waitMs);
        int backlog = Math.min(opt.backlog, cap);
        long durNanos = opt.duration * 1_000_000_000L, winNanos = opt.window * 1_000_000_000L;
        if (batchAck) {
            String why = Workloads.batchAckSupported(b);
            if (why != null) {
                return Outcome.skipped(w, why + ", batch ACK extension not supported");
            }
        }
        Progress p = new Progress(cap, true);
        Feeder feeder = new Feeder(queue, p, cap, backlog);
        long tEnq = System.nanoTime();
        if (!feeder.topUp()) {
            return Outcome.failed(w, cap, p, "pre-enqueue failed");
        }
        System.out.printf(Locale.ROOT, "%-14s %d jobs pre-enqueued in %.2fs (not timed); %d s fed, windows of %d s,"
                + " at most %d jobs%n", w, feeder.accepted.get(), secs(System.nanoTime() - tEnq), opt.duration,
                opt.window, cap);
        ShellCommands.beforeTiming(opt.beforeTiming, w);

        StatsWindow win = StatsWindow.open(opt);
        PhaseResult r = new PhaseResult(w, cap, b.serverPid());
        long deadline = r.t0 + durNanos;
        List<Thread> loops = WorkerLoop.start(b.client(), workers, queue, p,
                new WorkerLoop.Shape(false, batchAck, fetchCount, ackConc, waitMs), deadline);
        Thread feed = new Thread(() -> feeder.run(deadline), "feeder");
        feed.setDaemon(true);
        feed.start();
        List<Object> rates = new ArrayList<>();
        long prevCount = 0, prevT = r.t0;
        for (long t = r.t0 + winNanos; ; t += winNanos) {
            long at = Math.min(t, deadline);
            for (long left = at - System.nanoTime(); left > 0 && !p.settled(); left = at - System.nanoTime()) {
                Thread.sleep(Math.max(1, Math.min(50, left / 1_000_000L)));
            }
            long now = p.settled() && p.doneNanos != 0 ? Math.min(p.doneNanos, at) : System.nanoTime();
            long count = p.completedCount();
            double rate = (count - prevCount) / Math.max(1e-9, secs(now - prevT));
            rates.add(Math.round(rate * 10) / 10.0);
            System.out.printf(Locale.ROOT, "%-14s window %2d  %6.1f-%6.1fs  %8d jobs  %8.0f jobs/s%n", w, rates.size(),
                    secs(prevT - r.t0), secs(now - r.t0), count - prevCount, rate);
            prevCount = count;
            prevT = now;
            if (now >= deadline || p.settled()) {
                break;
            }
        }
        boolean capReached = p.settled();
        r.jobsDone.set((int) prevCount);
        r.finish(false);
        r.nanos = prevT - r.t0;
        win.end();
        feeder.stop = true;
        feed.join(30_000);
        WorkerLoop.join(loops, 30_000);

        Outcome o = Outcome.of(w, (int) prevCount, r, p);
        o.extra.put("duration_s", opt.duration);
        o.extra.put("window_s", opt.window);
        o.extra.put("backlog", backlog);
        o.extra.put("max_jobs", cap);
        o.extra.put("enqueued", feeder.accepted.get());
        o.extra.put("windows_jobs_per_s", rates);
        Object first = rates.get(0), last = rates.get(rates.size() - 1);
        o.extra.put("first_window_jobs_per_s", first);
        o.extra.put("last_window_jobs_per_s", last);
        double f = ((Number) first).doubleValue(), l = ((Number) last).doubleValue();
        o.extra.put("last_over_first", f > 0 ? Math.round(l / f * 1000) / 1000.0 : null);
        if (capReached) {
            o.notes.add("all " + cap + " jobs (--jobs) were done before " + opt.duration + " s; the run"
                    + " ended there, the last window is shorter");
        }
        if (feeder.failed) {
            o.notes.add("the feeder stopped after failed enqueues");
        }
        o.extra.put("workers", workers);
        o.extra.put("fetch_count", fetchCount);
        o.extra.put("ack", batchAck ? "batch" : "per-job");
        if (!batchAck) {
            o.extra.put("ack_concurrency", ackConc);
        }
        o.extra.put("fetches", p.fetchRequests.get());
        o.extra.put("empty_fetches", p.emptyFetches.get());
        o.extra.put("includes_enqueue", true);
        o.requestLatency(p.ackLatency);
        win.settleInto(o);
        drainWaiting(o, queue, p);
        return o;
    }

    /** Not timed: fetch and ack what still waits, then the lost / duplicate checks. */
    private void drainWaiting(Outcome o, String queue, Progress p) throws InterruptedException {
        long t0 = System.nanoTime();
        List<String> waiting = p.jobs.waiting();
        o.duplicates = p.jobs.duplicates(1);
        o.failed = p.failed.get();
        int drained = 0;
        if (!waiting.isEmpty()) {
            Progress drain = new Progress(waiting.size());
            drain.jobs.enqueued(waiting);
            long dl = System.nanoTime() + opt.timeout * 1_000_000_000L;
            List<Thread> loops = WorkerLoop.start(b.client(), 8, queue, drain,
                    new WorkerLoop.Shape(false, Workloads.batchAckSupported(b) == null, 100, 16, 0), dl);
            drain.awaitSettled(dl);
            WorkerLoop.join(loops, 2000);
            drained = drain.completedCount();
            o.lost = drain.jobs.lost();
            o.duplicates += drain.jobs.duplicates(1);
            o.failed += drain.failed.get();
            if (o.firstError == null) {
                o.firstError = drain.firstError.get();
            }
        }
        o.notes.add(String.format(Locale.ROOT, "after the run (not timed): %d of %d waiting jobs fetched and acked in"
                + " %.1fs", drained, waiting.size(), secs(System.nanoTime() - t0)));
    }

    /** Keeps --backlog jobs waiting in a queue: batches of up to 1,000, at most {@code cap} in all. */
    private final class Feeder {
        final String queue;
        final Progress p;
        final int cap, backlog;
        final AtomicInteger accepted = new AtomicInteger();
        volatile boolean stop, failed;
        private int nextArg;

        Feeder(String queue, Progress p, int cap, int backlog) {
            this.queue = queue;
            this.p = p;
            this.cap = cap;
            this.backlog = backlog;
        }

        private boolean wanted() {
            return accepted.get() < cap && accepted.get() - p.completedCount() < backlog;
        }

        /** Enqueues until --backlog jobs wait; false if an enqueue failed. */
        boolean topUp() {
            while (wanted()) {
                if (!postBatch()) {
                    return false;
                }
            }
            return true;
        }

        void run(long deadline) {
            try {
                int errorsInARow = 0;
                while (!stop && System.nanoTime() < deadline && accepted.get() < cap && errorsInARow < 20) {
                    if (!wanted()) {
                        Thread.sleep(2);
                    } else if (postBatch()) {
                        errorsInARow = 0;
                    } else {
                        errorsInARow++;
                        Thread.sleep(10);
                    }
                }
                if (errorsInARow >= 20) {
                    failed = true;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private boolean postBatch() {
            int size = Math.min(1000, cap - accepted.get());
            OjsAnswer a = b.client().post(Bench.BATCH_PUSH, b.batch(queue, nextArg, size));
            nextArg += size;
            List<String> ids = a.status() == 201 ? Workloads.ids(a) : List.of();
            if (ids.size() != size) {
                p.failed(a);
                return false;
            }
            p.jobs.enqueued(ids);
            accepted.addAndGet(size);
            return true;
        }
    }
}
