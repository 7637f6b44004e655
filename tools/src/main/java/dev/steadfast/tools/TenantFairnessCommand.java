package dev.steadfast.tools;

import dev.steadfast.tools.measure.Latencies;
import dev.steadfast.tools.ojs.NewJob;
import dev.steadfast.tools.ojs.OjsAnswer;
import dev.steadfast.tools.ojs.OjsClient;
import dev.steadfast.tools.ojs.WorkerCalls;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code tenant-fairness}: how long a small tenant's jobs wait while another tenant's backlog drains from the same
 * queue (ojs-fair-scheduling.md 9). Pushes {@code --backlog} jobs of tenant A (batches of 500), starts W worker
 * loops that FETCH (naming no tenant) and acknowledge with one batch ACK per FETCH, then every
 * {@code --probe-interval-ms} pushes one job of tenant B, {@code --probes} of them. A probe's wait is from just
 * before its PUSH was sent to the FETCH answer that handed it out (client clock, both ends on this machine). Prints
 * the probes' p50/p99/max wait, how much of A's backlog was left when the last probe was fetched, the acks per
 * second, then {@code RESULT {...}}. No assertion; run it against a server with steadfast.tenants.fair-claim true
 * and false to compare. Raw keep-alive sockets, 127.0.0.1 only.
 */
public final class TenantFairnessCommand {

    static final String USAGE = "usage: java -jar tools/target/steadfast-tools.jar tenant-fairness"
            + " [--url http://127.0.0.1:8080] [--token T] [--backlog 100000] [--workers 4] [--fetch-count 10]"
            + " [--probes 50] [--probe-interval-ms 200] [--max-seconds 600]";

    /** A job to PUSH with its tenant in meta (ojs-multi-tenancy 5.1). */
    record TenantJob(String type, List<?> args, Map<String, String> meta, NewJob.Options options) {
    }

    record Batch(List<TenantJob> jobs) {
    }

    record Fetched(List<FetchedJob> jobs) {
    }

    record FetchedJob(String id, List<Object> args) {
    }

    private int port = 8080;
    private String token;
    private int backlog = 100_000;
    private int workers = 4;
    private int fetchCount = 10;
    private int probes = 50;
    private int probeIntervalMs = 200;
    private int maxSeconds = 600;

    private final Map<String, Long> probePushed = new ConcurrentHashMap<>();
    private final Latencies probeWait = new Latencies();
    private final LongAdder acked = new LongAdder();
    private final LongAdder backlogAcked = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final AtomicBoolean stop = new AtomicBoolean();
    private volatile long lastProbeFetchedBacklogAcked = -1;

    private TenantFairnessCommand() {
    }

    public static int run(String[] args) throws InterruptedException {
        TenantFairnessCommand c = new TenantFairnessCommand();
        c.parse(args);
        return c.measure();
    }

    private void parse(String[] args) {
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--url" -> port = LocalUrl.port(i + 1 < args.length ? args[++i] : "");
                case "--token" -> token = args[++i];
                case "--backlog" -> backlog = Integer.parseInt(args[++i]);
                case "--workers" -> workers = Integer.parseInt(args[++i]);
                case "--fetch-count" -> fetchCount = Integer.parseInt(args[++i]);
                case "--probes" -> probes = Integer.parseInt(args[++i]);
                case "--probe-interval-ms" -> probeIntervalMs = Integer.parseInt(args[++i]);
                case "--max-seconds" -> maxSeconds = Integer.parseInt(args[++i]);
                default -> throw Exit.usage(USAGE, args[i].equals("--help"));
            }
        }
    }

    private int measure() throws InterruptedException {
        String queue = "tenant-fair-" + System.currentTimeMillis();
        try (OjsClient client = OjsClient.to("http://127.0.0.1:" + port).token(token).rawSockets(true)
                .requestIds("tenant-fairness-" + ProcessHandle.current().pid()).build()) {
            long t0 = System.nanoTime();
            for (int done = 0; done < backlog; done += 500) {
                List<TenantJob> jobs = new ArrayList<>(500);
                for (int i = done; i < Math.min(backlog, done + 500); i++) {
                    jobs.add(job("tenant-a", i, queue));
                }
                OjsAnswer a = client.post("/ojs/v1/jobs/batch", new Batch(jobs));
                if (a.status() != 201) {
                    System.err.println("backlog batch answered " + a.status() + ": " + a.excerpt(300));
                    return 1;
                }
            }
            System.out.printf(Locale.ROOT, "pushed a backlog of %d jobs of tenant-a into %s in %.1f s%n", backlog,
                    queue, (System.nanoTime() - t0) / 1e9);
            List<Thread> threads = new ArrayList<>();
            long start = System.nanoTime();
            long deadline = start + maxSeconds * 1_000_000_000L;
            for (int w = 0; w < workers; w++) {
                String worker = "tenant-fair-worker-" + w;
                Thread t = new Thread(() -> work(client, queue, worker, deadline));
                t.start();
                threads.add(t);
            }
            Thread.sleep(1000); // the workers are draining the backlog
            long probesFrom = System.nanoTime();
            for (int p = 0; p < probes && System.nanoTime() < deadline; p++) {
                String tag = "probe-" + p;
                probePushed.put(tag, System.nanoTime());
                OjsAnswer a = client.post("/ojs/v1/jobs", job("tenant-b", tag, queue));
                if (a.status() != 201) {
                    probePushed.remove(tag);
                    failed.increment();
                }
                Thread.sleep(probeIntervalMs);
            }
            while (!probePushed.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            long probesEnd = System.nanoTime();
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            double seconds = (probesEnd - start) / 1e9;
            // when no probe was fetched: what was left when the run stopped
            long left = backlog - (lastProbeFetchedBacklogAcked < 0 ? backlogAcked.sum() : lastProbeFetchedBacklogAcked);
            System.out.printf(Locale.ROOT, "workers %d (fetch %d, one batch ACK per fetch): %.0f acks/s over %.1f s;"
                    + " probes pushed every %d ms from %.1f s on%n", workers, fetchCount, acked.sum() / seconds,
                    seconds, probeIntervalMs, (probesFrom - start) / 1e9);
            System.out.printf(Locale.ROOT, "tenant-b wait until fetched (%d probes): p50 %.1f ms, p99 %.1f ms, max"
                    + " %.1f ms; unfetched %d; tenant-a backlog left when the last probe was fetched (or at the end): %d of %d;"
                    + " failed requests %d%n", probeWait.count(), ms(0.5), ms(0.99), ms(1), probePushed.size(),
                    left, backlog, failed.sum());
            System.out.printf(Locale.ROOT, "RESULT {\"backlog\":%d,\"workers\":%d,\"fetch_count\":%d,\"probes\":%d,"
                    + "\"p50_ms\":%.1f,\"p99_ms\":%.1f,\"max_ms\":%.1f,\"unfetched\":%d,\"backlog_left\":%d,"
                    + "\"acks_per_s\":%.0f,\"failed\":%d}%n", backlog, workers, fetchCount, probeWait.count(), ms(0.5),
                    ms(0.99), ms(1), probePushed.size(), left, acked.sum() / seconds, failed.sum());
        }
        return 0;
    }

    private static TenantJob job(String tenant, Object arg, String queue) {
        return new TenantJob("fair.tenant", List.of(arg), Map.of("tenant_id", tenant),
                new NewJob.Options(queue, null, null, null));
    }

    private void work(OjsClient client, String queue, String worker, long deadline) {
        WorkerCalls.Fetch fetch = WorkerCalls.Fetch.of(queue, fetchCount, worker);
        while (!stop.get() && System.nanoTime() < deadline) {
            OjsAnswer f = client.post(WorkerCalls.FETCH, fetch);
            long at = System.nanoTime();
            if (f.status() != 200) {
                failed.increment();
                if (f.failed()) {
                    return;
                }
                continue;
            }
            List<FetchedJob> jobs = f.as(Fetched.class).map(Fetched::jobs).orElse(List.of());
            List<WorkerCalls.BatchAck.Item> items = new ArrayList<>(jobs.size());
            for (FetchedJob j : jobs) {
                items.add(new WorkerCalls.BatchAck.Item(j.id(), null, null));
                Object arg = j.args() == null || j.args().isEmpty() ? null : j.args().get(0);
                if (arg instanceof String tag && tag.startsWith("probe-")) {
                    Long pushed = probePushed.remove(tag);
                    if (pushed != null) {
                        probeWait.record(at - pushed);
                        lastProbeFetchedBacklogAcked = backlogAcked.sum();
                    }
                } else {
                    backlogAcked.increment();
                }
            }
            if (items.isEmpty()) {
                continue;
            }
            OjsAnswer a = client.post(WorkerCalls.BATCH_ACK, new WorkerCalls.BatchAck(worker, items));
            if (a.status() == 200) {
                acked.add(items.size());
            } else {
                failed.increment();
            }
        }
    }

    private double ms(double p) {
        return probeWait.count() == 0 ? Double.NaN : probeWait.percentileMs(p);
    }
}
