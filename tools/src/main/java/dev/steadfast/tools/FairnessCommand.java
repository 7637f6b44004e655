package dev.steadfast.tools;

import dev.steadfast.tools.measure.Latencies;
import dev.steadfast.tools.ojs.Answers;
import dev.steadfast.tools.ojs.NewJob;
import dev.steadfast.tools.ojs.OjsAnswer;
import dev.steadfast.tools.ojs.OjsClient;
import dev.steadfast.tools.ojs.WorkerCalls;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code fairness}: P producer loops push single jobs as fast as they are answered while W worker loops fetch and
 * acknowledge them (one ACK request per job) from the same queue, for a fixed time. Prints the jobs pushed and
 * acknowledged per second (over the time after the first quarter, at most 5 s, is over), the backlog the run left
 * and the workers' request latencies, then {@code RESULT {"producers", "workers", "push_per_s", "ack_per_s",
 * "backlog", "failed"}}. No assertion: a rerunnable measurement. Raw keep-alive sockets (the JDK HttpClient costs
 * more CPU than the server on a small machine), 127.0.0.1 only; a loop whose request got no answer stops.
 */
public final class FairnessCommand {

    static final String USAGE = "usage: java -jar tools/target/steadfast-tools.jar fairness [--url http://127.0.0.1:8080]"
            + " [--token T] [--producers 50] [--workers 8] [--fetch-count 10] [--seconds 20]";

    private int port = 8080;
    private String token;
    private int producers = 50;
    private int workers = 8;
    private int fetchCount = 10;
    private int seconds = 20;

    private final LongAdder pushed = new LongAdder();
    private final LongAdder acked = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder pushedTimed = new LongAdder();
    private final LongAdder ackedTimed = new LongAdder();
    private final Latencies fetchLatency = new Latencies();
    private final Latencies ackLatency = new Latencies();

    private FairnessCommand() {
    }

    public static int run(String[] args) throws InterruptedException {
        FairnessCommand f = new FairnessCommand();
        f.parse(args);
        f.measure();
        return 0;
    }

    private void parse(String[] args) {
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--url" -> port = LocalUrl.port(i + 1 < args.length ? args[++i] : "");
                case "--token" -> token = args[++i];
                case "--producers" -> producers = Integer.parseInt(args[++i]);
                case "--workers" -> workers = Integer.parseInt(args[++i]);
                case "--fetch-count" -> fetchCount = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                default -> throw Exit.usage(USAGE, args[i].equals("--help"));
            }
        }
    }

    private void measure() throws InterruptedException {
        String queue = "fair-" + System.currentTimeMillis();
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        long measuredFrom = start + Math.min(5, seconds / 4) * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        try (OjsClient client = OjsClient.to("http://127.0.0.1:" + port).token(token).rawSockets(true)
                .requestIds("fairness-" + ProcessHandle.current().pid()).build()) {
            for (int p = 0; p < producers; p++) {
                int n = p;
                threads.add(start(() -> produce(client, queue, n, end, measuredFrom)));
            }
            for (int w = 0; w < workers; w++) {
                String worker = "fair-worker-" + w;
                threads.add(start(() -> work(client, queue, worker, end, measuredFrom)));
            }
            for (Thread t : threads) {
                t.join();
            }
        }
        double timed = (end - measuredFrom) / 1e9;
        System.out.printf(Locale.ROOT, "producers %d, workers %d (fetch %d, one ACK per job), %d s (rates over the last"
                + " %.0f s)%n", producers, workers, fetchCount, seconds, timed);
        System.out.printf(Locale.ROOT, "pushed %d (%.0f jobs/s), acknowledged %d (%.0f acks/s), backlog left %d, failed"
                + " requests %d%n", pushed.sum(), pushedTimed.sum() / timed, acked.sum(), ackedTimed.sum() / timed,
                pushed.sum() - acked.sum(), failed.sum());
        System.out.printf(Locale.ROOT, "worker requests: fetch p50 %.1f ms p99 %.1f ms (%d), ack p50 %.1f ms p99 %.1f ms"
                + " (%d)%n", ms(fetchLatency, 0.50), ms(fetchLatency, 0.99), fetchLatency.count(), ms(ackLatency, 0.50),
                ms(ackLatency, 0.99), ackLatency.count());
        System.out.printf(Locale.ROOT, "RESULT {\"producers\":%d,\"workers\":%d,\"push_per_s\":%.0f,\"ack_per_s\":%.0f,"
                + "\"backlog\":%d,\"failed\":%d}%n", producers, workers, pushedTimed.sum() / timed,
                ackedTimed.sum() / timed, pushed.sum() - acked.sum(), failed.sum());
    }

    private void produce(OjsClient client, String queue, int n, long end, long measuredFrom) {
        for (int k = 0; System.nanoTime() < end; k++) {
            OjsAnswer a = client.post("/ojs/v1/jobs", NewJob.of("fair.job", List.of(n, k), queue));
            if (a.status() == 201) {
                pushed.increment();
                if (System.nanoTime() >= measuredFrom) {
                    pushedTimed.increment();
                }
            } else {
                failed.increment();
                if (a.failed()) {
                    return;
                }
            }
        }
    }

    private void work(OjsClient client, String queue, String worker, long end, long measuredFrom) {
        WorkerCalls.Fetch fetch = WorkerCalls.Fetch.of(queue, fetchCount, worker);
        while (System.nanoTime() < end) {
            OjsAnswer f = client.post(WorkerCalls.FETCH, fetch);
            fetchLatency.record(f.nanos());
            if (f.status() != 200) {
                failed.increment();
                if (f.failed()) {
                    return;
                }
                continue;
            }
            Set<String> ids = new LinkedHashSet<>();
            f.as(Answers.Jobs.class).ifPresent(j -> j.list().forEach(job -> ids.add(job.id())));
            for (String id : ids) {
                OjsAnswer a = client.post(WorkerCalls.ACK, new WorkerCalls.Ack(id, worker, null));
                ackLatency.record(a.nanos());
                if (a.status() == 200) {
                    acked.increment();
                    if (System.nanoTime() >= measuredFrom) {
                        ackedTimed.increment();
                    }
                } else {
                    failed.increment();
                    if (a.failed()) {
                        return;
                    }
                }
            }
        }
    }

    private static double ms(Latencies l, double p) {
        return l.count() == 0 ? 0 : l.percentileMs(p);
    }

    private static Thread start(Runnable r) {
        Thread t = new Thread(r);
        t.start();
        return t;
    }
}
