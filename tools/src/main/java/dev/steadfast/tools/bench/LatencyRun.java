package dev.steadfast.tools.bench;

import static dev.steadfast.tools.bench.Bench.round2;

import dev.steadfast.tools.measure.CpuTime;
import dev.steadfast.tools.measure.Latencies;
import dev.steadfast.tools.ojs.Answers;
import dev.steadfast.tools.ojs.OjsAnswer;
import dev.steadfast.tools.ojs.WorkerCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * W3: --workers (8) loops idle in a long-poll FETCH (wait_ms --wait-ms, default 30000; if the server does not hold
 * the request, they poll every --poll-ms), then --jobs (200) jobs are enqueued one at a time, --gap-ms (20) apart.
 * Latency = FETCH answer carrying the job received - just before its PUSH was sent; p50/p90/p99/max/min.
 */
final class LatencyRun {

    /** W3's jobs unless --jobs says otherwise; also the most the untimed client warm-up runs (BenchOptions). */
    static final int JOBS = 200;

    private final Bench b;
    private final BenchOptions opt;

    LatencyRun(Bench bench) {
        this.b = bench;
        this.opt = bench.opt();
    }

    Outcome run(String queue) throws InterruptedException {
        int jobs = opt.pick("--jobs", opt.jobs, JOBS);
        int workers = opt.pick("--workers", opt.workers, 8);
        int fetchCount = opt.pick("--fetch-count", opt.fetchCount, 1);
        int waitMs = opt.waitMs >= 0 ? opt.waitMs : 30_000;
        Progress p = new Progress(jobs);
        boolean lp = probeLongPoll(queue, waitMs);
        Map<String, Long> arrived = new ConcurrentHashMap<>();
        Map<String, Long> sent = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        StatsWindow win = StatsWindow.open(opt);
        CpuTime cpu0 = CpuTime.now(b.serverPid());
        long tStart = System.nanoTime();
        List<Thread> loops = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            String workerId = "bench-" + ProcessHandle.current().pid() + "-" + queue + "-w" + i;
            WorkerCalls.Fetch fetch = WorkerCalls.Fetch.of(queue, fetchCount, workerId).waiting(lp ? waitMs : null);
            Thread t = new Thread(() -> loop(fetch, workerId, waitMs, lp, p, arrived, stop), "w3-loop-" + i);
            t.setDaemon(true);
            t.start();
            loops.add(t);
        }
        Thread.sleep(opt.idleMs); // workers idle (graphile's W3 waits 3 s too)
        long next = System.nanoTime();
        for (int i = 0; i < jobs; i++) {
            long t0 = System.nanoTime();
            OjsAnswer a = b.client().post(Bench.PUSH, b.job(queue, i));
            String id = a.status() == 201 ? a.as(Answers.OneJob.class).map(j -> j.job() == null ? null : j.job().id())
                    .orElse(null) : null;
            if (id != null) {
                sent.put(id, t0);
                p.jobs.enqueued(id);
            } else {
                p.failed(a);
            }
            next += opt.gapMs * 1_000_000L;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
            }
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline && !arrived.keySet().containsAll(sent.keySet())) {
            Thread.sleep(5);
        }
        while (System.nanoTime() < deadline && p.completedCount() < p.jobs.enqueuedCount()) {
            Thread.sleep(5);
        }
        long nanos = System.nanoTime() - tStart;
        CpuTime cpu1 = CpuTime.now(b.serverPid());
        win.end();
        stop.set(true);
        WorkerLoop.join(loops, lp ? 200 : 2000);

        Latencies lat = new Latencies();
        sent.forEach((id, t0) -> {
            Long at = arrived.get(id);
            if (at != null) {
                lat.record(at - t0);
            }
        });
        Outcome o = new Outcome("w3", jobs);
        o.nanos = nanos;
        o.clientCores = cpu1.clientCores(cpu0, nanos);
        o.serverCores = cpu1.serverCores(cpu0, nanos);
        o.lost = p.jobs.lost() + (jobs - p.jobs.enqueuedCount());
        o.duplicates = p.jobs.duplicates(1);
        o.failed = p.failed.get();
        o.firstError = p.firstError.get();
        o.rate = Double.NaN;
        o.extra.put("workers", workers);
        o.extra.put("fetch_count", fetchCount);
        o.extra.put("gap_ms", opt.gapMs);
        o.extra.put("fetch_mode", lp ? "long-poll" : "poll");
        o.extra.put(lp ? "wait_ms" : "poll_ms", lp ? waitMs : opt.pollMs);
        o.extra.put("count", lat.count());
        o.extra.put("p50_ms", round2(lat.percentileMs(0.50)));
        o.extra.put("p90_ms", round2(lat.percentileMs(0.90)));
        o.extra.put("p99_ms", round2(lat.percentileMs(0.99)));
        o.extra.put("max_ms", round2(lat.percentileMs(1.0)));
        o.extra.put("min_ms", round2(lat.percentileMs(0.0)));
        o.extra.put("fetches", p.fetchRequests.get());
        win.settleInto(o);
        return o;
    }

    /** Does the server hold an empty FETCH? Probed with up to 400 ms on the still empty queue; prints the mode. */
    private boolean probeLongPoll(String queue, int waitMs) {
        boolean longPoll = false;
        String mode;
        if (waitMs > 0) {
            int probeMs = Math.min(waitMs, 400);
            OjsAnswer a = b.client().post(WorkerCalls.FETCH, WorkerCalls.Fetch.of(queue, 1, "bench-probe")
                    .waiting(probeMs), Duration.ofMillis(probeMs + 30_000L));
            if (a.status() == 200 && Workloads.ids(a).isEmpty()) {
                longPoll = a.nanos() >= probeMs * 500_000L;
            } else if (a.status() != 200) {
                System.out.println("note: fetch with wait_ms answered " + a.status());
            }
            mode = longPoll ? "long-poll wait_ms=" + waitMs
                    : "poll every " + opt.pollMs + " ms (server answered an empty wait_ms=" + probeMs + " fetch in "
                    + String.format(Locale.ROOT, "%.1f", a.nanos() / 1e6) + " ms)";
        } else {
            mode = "poll every " + opt.pollMs + " ms";
        }
        System.out.println("w3: fetch mode: " + mode);
        return longPoll;
    }

    /** One idle worker: FETCH, note when each job arrived, ACK it; until told to stop or 20 errors in a row. */
    private void loop(WorkerCalls.Fetch fetch, String workerId, int waitMs, boolean lp, Progress p,
                      Map<String, Long> arrived, AtomicBoolean stop) {
        try {
            int errorsInARow = 0;
            while (!stop.get() && errorsInARow < 20) {
                OjsAnswer a = b.client().post(WorkerCalls.FETCH, fetch, Duration.ofMillis(waitMs + 30_000L));
                long at = System.nanoTime();
                p.fetchRequests.incrementAndGet();
                if (a.status() != 200) {
                    if (!stop.get()) {
                        p.failed(a);
                    }
                    errorsInARow++;
                    Thread.sleep(10);
                    continue;
                }
                errorsInARow = 0;
                List<String> ids = Workloads.ids(a);
                for (String id : ids) {
                    arrived.putIfAbsent(id, at);
                    if (p.jobs.delivered(id) > 1) {
                        continue;
                    }
                    b.client().postAsync(WorkerCalls.ACK, new WorkerCalls.Ack(id, workerId, Map.of()))
                            .thenAccept(r -> {
                                if (r.status() != 200) {
                                    p.failed(r);
                                } else {
                                    p.complete(id);
                                }
                            });
                }
                if (ids.isEmpty() && !lp && opt.pollMs > 0) {
                    Thread.sleep(opt.pollMs);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
