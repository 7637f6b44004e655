package dev.steadfast.tools.fuzz;

import dev.steadfast.tools.ojs.Answers;
import dev.steadfast.tools.ojs.OjsAnswer;
import dev.steadfast.tools.ojs.OjsClient;
import dev.steadfast.tools.ojs.OjsJson;
import dev.steadfast.tools.ojs.WorkerCalls;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends malformed requests ({@link MalformedRequests}) to every endpoint of an OJS server on 127.0.0.1 and checks
 * that each one is answered with a 4xx OJS error envelope (never a 5xx, never a bare answer), while well-formed
 * pushes, fetches and acks run concurrently and must all succeed. A third of the threads (at least one) alternate
 * the two; the others send malformed requests only. Used by the {@code fuzz} command and by {@code faults}.
 */
public final class Fuzzer {

    /** What a run should do; the url is always http://127.0.0.1:PORT. */
    public record Options(int port, String token, int requests, int concurrency, long seed, long maxSeconds) {
    }

    /** The counts; the run is clean when every one but total is 0. */
    public record Outcome(int total, int fiveXx, int withoutEnvelope, int goodFailed, int ioErrors) {

        public boolean clean() {
            return fiveXx + withoutEnvelope + goodFailed + ioErrors == 0;
        }

        public String resultLine() {
            return String.format("RESULT total=%d 5xx=%d without_envelope=%d good_failed=%d io_errors=%d", total,
                    fiveXx, withoutEnvelope, goodFailed, ioErrors);
        }
    }

    private static final String HOST = "127.0.0.1";

    private final Options o;
    private final RawExchange raw;
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicInteger fiveXx = new AtomicInteger();
    private final AtomicInteger noEnvelope = new AtomicInteger();
    private final AtomicInteger goodSent = new AtomicInteger();
    private final AtomicInteger goodFailed = new AtomicInteger();
    private final AtomicInteger ioErrors = new AtomicInteger();
    private final Map<String, AtomicInteger> byStatus = new ConcurrentHashMap<>();
    private final List<String> examples = Collections.synchronizedList(new ArrayList<>());

    public Fuzzer(Options options) {
        this.o = options;
        this.raw = new RawExchange(HOST, options.port(), options.token());
    }

    /** Runs until the requests are sent or the time is up, prints the summary to {@code out}. */
    public Outcome run(PrintStream out) throws InterruptedException {
        int total = Math.max(1, Math.min(o.requests(), 1_000_000));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(o.maxSeconds());
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(o.concurrency() + 2);
        int good = Math.max(1, o.concurrency() / 3);
        AtomicInteger goodLoops = new AtomicInteger();
        try (OjsClient client = OjsClient.to("http://" + HOST + ":" + o.port()).token(o.token())
                .requestIds("fuzz-" + ProcessHandle.current().pid()).build()) {
            for (int t = 0; t < o.concurrency(); t++) {
                int thread = t;
                pool.submit(() -> {
                    Random r = new Random(o.seed() * 1000 + thread);
                    while (sent.get() < total && System.nanoTime() < deadline) {
                        try {
                            if (thread < good && goodLoops.incrementAndGet() % 2 == 0) {
                                goodRound(client, r, thread);
                            } else {
                                badRequest(r);
                            }
                        } catch (Exception e) {
                            ioErrors.incrementAndGet();
                            example("io error: " + e);
                        }
                    }
                    return null;
                });
            }
            pool.shutdown();
            pool.awaitTermination(o.maxSeconds() + 60, TimeUnit.SECONDS);
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        Outcome result = new Outcome(sent.get(), fiveXx.get(), noEnvelope.get(), goodFailed.get(), ioErrors.get());
        out.printf(Locale.ROOT, "fuzz: %d requests in %.1f s (seed %d): %d malformed, %d well-formed%n",
                result.total(), secs, o.seed(), result.total() - goodSent.get(), goodSent.get());
        out.println("statuses: " + new TreeMap<>(byStatus));
        out.println(result.resultLine());
        synchronized (examples) {
            examples.stream().limit(30).forEach(e -> out.println("  " + e));
        }
        return result;
    }

    // ---- well-formed traffic: push a job, fetch it, ack it; each step must succeed

    private void goodRound(OjsClient client, Random r, int thread) {
        String queue = "fuzz-good-" + thread;
        String worker = "fuzz-good-worker-" + thread;
        Map<String, Object> job = JsonTrees.map("type", "fuzz.good", "args", List.of("ok", r.nextInt()),
                "meta", JsonTrees.map("k", "v"), "options", JsonTrees.map("queue", queue));
        if (good(client, "/ojs/v1/jobs", OjsJson.write(job), 201) == null) {
            return;
        }
        OjsAnswer fetch = good(client, WorkerCalls.FETCH, WorkerCalls.Fetch.of(queue, 1, worker), 200);
        if (fetch == null) {
            return;
        }
        List<Answers.Job> jobs = fetch.as(Answers.Jobs.class).map(Answers.Jobs::list).orElse(List.of());
        if (jobs.isEmpty() || jobs.get(0).id() == null) {
            goodFailed.incrementAndGet();
            example("good fetch returned no job: " + fetch.body());
            return;
        }
        good(client, WorkerCalls.ACK, new WorkerCalls.Ack(jobs.get(0).id(), worker, Map.of("ok", true)), 200);
    }

    private OjsAnswer good(OjsClient client, String path, Object body, int expected) {
        goodSent.incrementAndGet();
        sent.incrementAndGet();
        OjsAnswer a = client.send("POST", path, body, Duration.ofSeconds(30));
        if (a.failed()) {
            ioErrors.incrementAndGet();
            example("io error: " + a.failure());
            return null;
        }
        byStatus.computeIfAbsent(String.valueOf(a.status()), k -> new AtomicInteger()).incrementAndGet();
        if (a.status() != expected) {
            goodFailed.incrementAndGet();
            example("good POST " + path + " -> " + a.status() + " " + a.body());
            return null;
        }
        return a;
    }

    // ---- malformed traffic: a 4xx with the envelope, nothing else

    private void badRequest(Random r) throws java.io.IOException {
        MalformedRequests.Request q = MalformedRequests.next(r);
        sent.incrementAndGet();
        RawExchange.Answer a = raw.send(q.method(), q.path(), q.headers(), q.body());
        byStatus.computeIfAbsent(String.valueOf(a.status()), k -> new AtomicInteger()).incrementAndGet();
        String what = "kind " + q.kind() + " " + q.method() + " "
                + (q.path().length() > 120 ? q.path().substring(0, 120) + "..." : q.path());
        if (a.status() == 0) {
            noEnvelope.incrementAndGet();
            example("no answer " + what + " -> " + a.body());
        } else if (a.status() >= 500) {
            fiveXx.incrementAndGet();
            example("5xx " + a.status() + " " + what + " -> " + a.body());
        } else if (a.status() >= 400 && !envelope(a)) {
            noEnvelope.incrementAndGet();
            example("no envelope " + a.status() + " " + what + " -> headers " + a.headers().keySet() + " body "
                    + a.body());
        }
    }

    /** The OJS error envelope: its request id the one in X-Request-Id, and OJS-Version set. */
    static boolean envelope(RawExchange.Answer a) {
        String id = a.headers().get("x-request-id");
        if (id == null || !a.headers().containsKey("ojs-version")) {
            return false;
        }
        return OjsJson.read(a.body(), dev.steadfast.tools.ojs.ErrorEnvelope.class)
                .map(dev.steadfast.tools.ojs.ErrorEnvelope::error)
                .filter(e -> e.complete() && id.equals(e.requestId())).isPresent();
    }

    private void example(String s) {
        if (examples.size() < 200) {
            examples.add(s.length() > 400 ? s.substring(0, 400) + "..." : s);
        }
    }
}
