import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Faults: runs several instances of the packaged server on one PostgreSQL database under producers and workers,
 * breaks things while they run, and counts what went wrong. JDK only; run from the repository root after
 * {@code ./mvnw package}: {@code java scripts/Faults.java --help}.
 *
 * <p>What happens: {@code --instances} servers start from the packaged jar on the local cluster of
 * {@code scripts/local-pg} (database {@code --db}, emptied first), with API authentication on and one shared
 * console session key; a further instance without that key must refuse to start. Producers push {@code --jobs}
 * jobs (single and batch pushes, client-chosen ids, spread over {@code --seconds}) through every instance;
 * workers fetch and acknowledge them through every instance (lease {@code --lease-ms}, no heartbeats); slow
 * workers take one job at a time, keep it longer than their lease ({@code --slow-ms} against
 * {@code --slow-lease-ms}) without heartbeats and then answer, half of them naming their worker and half not.
 * Meanwhile: {@code scripts/Fuzz.java} sends malformed requests (NUL in every string field included) to one
 * instance; the first instance is killed with SIGKILL and later started again; PostgreSQL is restarted in
 * immediate mode (as after a crash). Requests that failed in a way that leaves their effect unknown (connection
 * lost, 503) are sent again, a push with the same job id.
 *
 * <p>Then it reads every job back and prints: jobs lost (pushed with 201 but not completed at the end),
 * completed twice (two answers accepted for one job), overlapping leases (two holds of one job at once, where a
 * hold is the interval in which the worker certainly held a live lease: from the fetch answer to the lease's
 * end, or to the accepted ACK of a worker that named itself), answers 500, other 5xx but 503, answers without the
 * OJS error envelope; plus how often a late anonymous answer was taken (see README "Protocol notes"). Exit 1
 * when any of the first six is not zero, the refused start did not happen or events were not shared.
 *
 * <p>{@code --skew +20s} runs instance 1 with its machine clock off by that much (libfaketime): with the
 * server's default database clock nothing changes; with {@code --clock system} leases are judged on two clocks.
 */
public class Faults {

    static String jar = "target/quarkus-app/quarkus-run.jar";
    static String db = "steadfast_faults";
    static int instances = 3;
    static int basePort = 18181;
    static int jobs = 3000;
    static int seconds = 30;
    static int producers = 8;
    static int workers = 6;
    static int slowWorkers = 2;
    static int leaseMs = 5000;
    static int slowLeaseMs = 1000;
    static int slowMs = 1500;
    static int workMs = 5;
    static int fuzzRequests = 1500;
    static int drainSeconds = 120;
    static boolean kill = true;
    static boolean restartDb = true;
    static String heap = "-Xmx384m";
    static String skew;
    static String clock;
    static final String FAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";

    static final String QUEUE = "faults-" + System.currentTimeMillis();
    static String token;
    static Path logs = Path.of("target/faults");
    static final long T0 = System.nanoTime();

    // ---- what was observed
    static final Set<String> created = ConcurrentHashMap.newKeySet();
    static final Map<String, AtomicInteger> accepted = new ConcurrentHashMap<>();
    static final ConcurrentLinkedQueue<Hold> holds = new ConcurrentLinkedQueue<>();
    static final AtomicLong requests = new AtomicLong();
    static final AtomicLong answers500 = new AtomicLong();
    static final AtomicLong answers503 = new AtomicLong();
    static final AtomicLong answersOther5xx = new AtomicLong();
    static final AtomicLong noEnvelope = new AtomicLong();
    static final AtomicLong connectionFailures = new AtomicLong();
    static final Map<String, AtomicLong> failureKinds = new ConcurrentHashMap<>();
    static final AtomicLong unexpected4xx = new AtomicLong();
    static final AtomicLong[] late = {new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong()};
    static final List<String> examples = java.util.Collections.synchronizedList(new ArrayList<>());
    static final AtomicBoolean stopWorkers = new AtomicBoolean();
    static final AtomicLongArray downUntil = new AtomicLongArray(16);
    static final List<String> timeline = java.util.Collections.synchronizedList(new ArrayList<>());

    /** One worker's hold of one job, in nanoseconds since start. */
    static final class Hold {
        final String job;
        final String worker;
        final boolean named;
        final long fetchSent;
        final long fetchReceived;
        final long lease;
        volatile long ackSent = -1;
        volatile boolean acceptedAck;

        Hold(String job, String worker, boolean named, long fetchSent, long fetchReceived, long leaseMs) {
            this.job = job;
            this.worker = worker;
            this.named = named;
            this.fetchSent = fetchSent;
            this.fetchReceived = fetchReceived;
            this.lease = leaseMs * 1_000_000L;
        }

        long start() {
            return fetchReceived;
        }

        /** Until when the worker certainly held a live lease (server-side expiry is at least fetchSent + lease). */
        long end() {
            long byLease = fetchSent + lease;
            return named && acceptedAck ? Math.max(byLease, ackSent) : byLease;
        }
    }

    public static void main(String[] args) throws Exception {
        parse(args);
        if (!Files.exists(Path.of("scripts/local-pg")) || !Files.exists(Path.of(jar))) {
            die("run from the repository root after ./mvnw package (needs scripts/local-pg and " + jar + ")");
        }
        Files.createDirectories(logs);
        try (var old = Files.list(logs)) {
            for (Path f : old.filter(f -> f.getFileName().toString().endsWith(".log")).toList()) {
                Files.delete(f);
            }
        }
        String url = command(List.of("scripts/local-pg", "start", "--db", db)).trim();
        Matcher m = Pattern.compile("@([^/]+)/").matcher(url);
        if (!m.find()) {
            die("scripts/local-pg printed no URL: " + url);
        }
        String hostPort = m.group(1);
        SecureRandom random = new SecureRandom();
        byte[] t = new byte[32];
        random.nextBytes(t);
        token = "stf_" + Base64.getUrlEncoder().withoutPadding().encodeToString(t);
        String tokenHash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(token.getBytes(StandardCharsets.UTF_8)));
        random.nextBytes(t);
        String secret = Base64.getEncoder().encodeToString(t);
        Map<String, String> env = new HashMap<>();
        env.put("STEADFAST_AUTH_TOKENS_FAULTS", "admin:sha256:" + tokenHash);
        env.put("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://" + hostPort + "/" + db);
        env.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://" + hostPort + "/" + db);
        env.put("QUARKUS_DATASOURCE_USERNAME", "steadfast");
        env.put("QUARKUS_DATASOURCE_PASSWORD", "steadfast");
        env.put("STEADFAST_ADMIN_RESET_ENABLED", "true");

        List<Process> servers = new ArrayList<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> servers.forEach(p -> {
            if (p != null) {
                p.destroy();
            }
        })));
        Map<String, String> withKey = new HashMap<>(env);
        withKey.put("STEADFAST_CONSOLE_SESSION_SECRET", secret);
        for (int i = 0; i < instances; i++) {
            servers.add(startServer(i, withKey));
            if (i == 0) {
                awaitHealthy(0, servers.get(0)); // the first one migrates the database alone
            }
        }
        for (int i = 1; i < instances; i++) {
            awaitHealthy(i, servers.get(i));
        }
        say("%d instances up on ports %d-%d, database %s", instances, basePort, basePort + instances - 1, db);
        boolean refusedWithoutKey = instances < 2 || refusesWithoutKey(env);
        Answer reset = post(0, "/ojs/v1/admin/reset", "{}");
        if (reset == null || reset.status != 200) {
            die("reset failed: " + (reset == null ? "no answer" : reset.status + " " + reset.body));
        }
        long eventsMs = instances < 2 ? 0 : eventsShared();

        long loadStart = System.nanoTime();
        List<Thread> load = new ArrayList<>();
        AtomicInteger next = new AtomicInteger();
        for (int p = 0; p < producers; p++) {
            int n = p;
            load.add(start("producer-" + p, () -> produce(n, next, loadStart)));
        }
        List<Thread> workerThreads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            String name = "worker-" + w;
            workerThreads.add(start(name, () -> work(name)));
        }
        for (int w = 0; w < slowWorkers; w++) {
            String name = "slow-worker-" + w;
            boolean named = w % 2 == 1;
            workerThreads.add(start(name, () -> slowWork(name, named)));
        }
        Thread faults = start("faults", () -> faults(servers, withKey, hostPort, loadStart));
        for (Thread p : load) {
            p.join();
        }
        say("producers done: %d jobs created", created.size());
        faults.join();
        long drainUntil = System.nanoTime() + drainSeconds * 1_000_000_000L;
        int completed = 0;
        while (System.nanoTime() < drainUntil) {
            completed = completedCount();
            if (completed >= created.size()) {
                break;
            }
            Thread.sleep(1000);
        }
        stopWorkers.set(true);
        for (Thread w : workerThreads) {
            w.join(30_000);
        }
        say("drained: %d of %d completed by the count", completed, created.size());
        report(refusedWithoutKey, eventsMs);
    }

    // ---- the load

    static void produce(int n, AtomicInteger next, long loadStart) {
        Random r = new Random(n);
        double perJobNs = seconds * 1e9 / jobs;
        int calls = 0;
        while (true) {
            int size = calls++ % 5 == 4 ? 10 : 1;
            int first = next.getAndAdd(size);
            if (first >= jobs) {
                return;
            }
            size = Math.min(size, jobs - first);
            long due = loadStart + (long) (first * perJobNs);
            sleepUntil(due);
            List<String> ids = new ArrayList<>();
            StringBuilder body = new StringBuilder();
            for (int i = 0; i < size; i++) {
                String id = uuid7();
                ids.add(id);
                String job = "{\"id\":\"" + id + "\",\"type\":\"faults.job\",\"args\":[" + (first + i) + ",\"x\"],"
                        + "\"options\":{\"queue\":\"" + QUEUE + "\",\"retry\":{\"max_attempts\":25,"
                        + "\"initial_interval\":\"PT0.2S\",\"backoff_coefficient\":1.0,\"backoff_strategy\":\"none\","
                        + "\"jitter\":false}}}";
                body.append(i == 0 ? "" : ",").append(job);
            }
            String path = size == 1 ? "/ojs/v1/jobs" : "/ojs/v1/jobs/batch";
            String payload = size == 1 ? body.toString() : "{\"jobs\":[" + body + "]}";
            // unknown outcome (connection lost, 503): send again, same ids, until 201 or 409 duplicate
            for (int attempt = 0; attempt < 600; attempt++) {
                Answer a = post(r.nextInt(instances), path, payload);
                if (a != null && a.status == 201 || a != null && a.status == 409 && a.body.contains("duplicate")) {
                    created.addAll(ids);
                    break;
                }
                if (a != null && a.status != 503) {
                    unexpected4xx.incrementAndGet();
                    example("push answered " + a.status + ": " + cut(a.body));
                    break;
                }
                sleep(100);
            }
        }
    }

    static void work(String worker) {
        Random r = new Random(worker.hashCode());
        while (!stopWorkers.get()) {
            long sent = now();
            Answer f = post(r.nextInt(instances), "/ojs/v1/workers/fetch", "{\"queues\":[\"" + QUEUE + "\"],"
                    + "\"count\":5,\"worker_id\":\"" + worker + "\",\"visibility_timeout_ms\":" + leaseMs
                    + ",\"wait_ms\":500}");
            long received = now();
            if (f == null || f.status != 200) {
                sleep(50);
                continue;
            }
            for (String id : ids(f.body)) {
                Hold h = new Hold(id, worker, true, sent, received, leaseMs);
                holds.add(h);
                if (workMs > 0) {
                    sleep(r.nextInt(workMs + 1));
                }
                answer(h, r, true);
            }
        }
    }

    static void slowWork(String worker, boolean named) {
        Random r = new Random(worker.hashCode());
        while (!stopWorkers.get()) {
            long sent = now();
            Answer f = post(r.nextInt(instances), "/ojs/v1/workers/fetch", "{\"queues\":[\"" + QUEUE + "\"],"
                    + "\"count\":1,\"worker_id\":\"" + worker + "\",\"visibility_timeout_ms\":" + slowLeaseMs
                    + ",\"wait_ms\":500}");
            long received = now();
            if (f == null || f.status != 200) {
                sleep(50);
                continue;
            }
            for (String id : ids(f.body)) {
                Hold h = new Hold(id, worker, named, sent, received, slowLeaseMs);
                holds.add(h);
                sleep(slowMs); // no heartbeat: the lease runs out meanwhile
                answer(h, r, named);
            }
        }
    }

    /** ACK until an answer says what happened; a lost connection or a 503 leaves it unknown, so send again. */
    static void answer(Hold h, Random r, boolean named) {
        String body = "{\"job_id\":\"" + h.job + "\"" + (named ? ",\"worker_id\":\"" + h.worker + "\"" : "")
                + ",\"result\":{\"ok\":true}}";
        long giveUp = h.fetchSent + h.lease + 10_000_000_000L;
        while (now() < giveUp) {
            long sent = now();
            Answer a = post(r.nextInt(instances), "/ojs/v1/workers/ack", body);
            if (a == null || a.status == 503) {
                sleep(50);
                continue;
            }
            boolean isLate = sent > h.fetchReceived + h.lease; // its lease had certainly run out
            if (a.status == 200) {
                h.ackSent = sent;
                h.acceptedAck = true;
                accepted.computeIfAbsent(h.job, k -> new AtomicInteger()).incrementAndGet();
            } else if (a.status != 409) {
                unexpected4xx.incrementAndGet();
                example("ack answered " + a.status + ": " + cut(a.body));
            }
            if (isLate) {
                late[(named ? 0 : 2) + (a.status == 200 ? 1 : 0)].incrementAndGet();
            }
            return;
        }
    }

    // ---- the faults

    static void faults(List<Process> servers, Map<String, String> env, String hostPort, long loadStart) {
        try {
            Process fuzz = null;
            sleepUntil(loadStart + (long) (seconds * 0.10e9));
            if (fuzzRequests > 0) {
                int target = instances - 1;
                say("fuzz: %d malformed and well-formed requests against instance %d", fuzzRequests, target);
                fuzz = new ProcessBuilder("java", "scripts/Fuzz.java", "--url", "http://127.0.0.1:" + (basePort + target),
                        "--requests", String.valueOf(fuzzRequests), "--token", token, "--max-seconds", "300")
                        .redirectErrorStream(true).redirectOutput(logs.resolve("fuzz.log").toFile()).start();
            }
            if (kill && instances > 1) {
                sleepUntil(loadStart + (long) (seconds * 0.35e9));
                servers.get(0).destroyForcibly(); // SIGKILL
                servers.get(0).waitFor();
                say("SIGKILL instance 0 (pid %d)", servers.get(0).pid());
                downUntil.set(0, Long.MAX_VALUE);
                sleepUntil(loadStart + (long) (seconds * 0.50e9));
                servers.set(0, startServer(0, env));
                awaitHealthy(0, servers.get(0));
                downUntil.set(0, 0);
                say("instance 0 started again");
            }
            if (fuzz != null) {
                fuzz.waitFor(); // its good requests must not meet the database restart
                fuzzResult();
            }
            if (restartDb) {
                sleepUntil(loadStart + (long) (seconds * 0.70e9));
                say("restarting PostgreSQL (immediate)");
                long t = now();
                command(List.of("scripts/local-pg", "restart", "--immediate"));
                say("PostgreSQL back after %.1f s", (now() - t) / 1e9);
            }
        } catch (Exception e) {
            example("fault step failed: " + e);
            answersOther5xx.incrementAndGet(); // counted as a failure of the run
        }
    }

    static long fuzz5xx = -1;
    static long fuzzNoEnvelope = -1;
    static long fuzzOthers = -1;
    static String fuzzSummary = "";

    static void fuzzResult() throws IOException {
        List<String> lines = Files.readAllLines(logs.resolve("fuzz.log"));
        for (String l : lines) {
            Matcher m = Pattern.compile("RESULT total=(\\d+) 5xx=(\\d+) without_envelope=(\\d+) good_failed=(\\d+)"
                    + " io_errors=(\\d+)").matcher(l);
            if (m.find()) {
                fuzz5xx = Long.parseLong(m.group(2));
                fuzzNoEnvelope = Long.parseLong(m.group(3));
                fuzzOthers = Long.parseLong(m.group(4)) + Long.parseLong(m.group(5));
                fuzzSummary = l;
            }
        }
        say("fuzz: %s", fuzzSummary.isEmpty() ? "no RESULT line (see " + logs + "/fuzz.log)" : fuzzSummary);
    }

    /** A further instance on the same database without the shared session key must refuse to start. */
    static boolean refusesWithoutKey(Map<String, String> env) throws Exception {
        int i = instances;
        Process p = startServer(i, env);
        boolean exited = p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        String log = Files.readString(logs.resolve("instance-" + i + ".log"));
        boolean ok = exited && p.exitValue() != 0 && log.contains("steadfast.console.session-secret");
        say("an instance without the shared session key %s", ok ? "refused to start, naming the setting"
                : "did NOT refuse to start (see " + logs + "/instance-" + i + ".log)");
        return ok;
    }

    /** A job pushed through one instance shows up in another instance's events; answers the delay in ms. */
    static long eventsShared() {
        String id = uuid7();
        long t = System.nanoTime();
        post(1, "/ojs/v1/jobs", "{\"id\":\"" + id + "\",\"type\":\"faults.marker\",\"args\":[],\"options\":"
                + "{\"queue\":\"" + QUEUE + "-marker\"}}");
        while (System.nanoTime() - t < 10_000_000_000L) {
            Answer a = get(0, "/ojs/v1/events?queues=" + QUEUE + "-marker&limit=10");
            if (a != null && a.body.contains(id)) {
                long ms = (System.nanoTime() - t) / 1_000_000;
                say("events: a push through instance 1 was listed by instance 0 after %d ms", ms);
                return ms;
            }
            sleep(20);
        }
        say("events: a push through instance 1 was NOT listed by instance 0 within 10 s");
        return -1;
    }

    // ---- the verdict

    static int completedCount() {
        for (int i = 0; i < instances; i++) {
            Answer a = get(i, "/ojs/v1/admin/jobs/count?queue=" + QUEUE);
            if (a != null && a.status == 200) {
                Matcher m = Pattern.compile("\"completed\"\\s*:\\s*(\\d+)").matcher(a.body);
                if (m.find()) {
                    return Integer.parseInt(m.group(1));
                }
            }
        }
        return -1;
    }

    static void report(boolean refusedWithoutKey, long eventsMs) throws Exception {
        // every created job, read back
        List<String> ids = new ArrayList<>(created);
        Map<String, String> states = new ConcurrentHashMap<>();
        AtomicInteger cursor = new AtomicInteger();
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            readers.add(start("reader-" + t, () -> {
                for (int i = cursor.getAndIncrement(); i < ids.size(); i = cursor.getAndIncrement()) {
                    Answer a = null;
                    for (int k = 0; k < 20 && (a == null || a.status >= 500); k++) {
                        a = get(i % instances, "/ojs/v1/jobs/" + ids.get(i));
                    }
                    Matcher m = a == null ? null : Pattern.compile("\"state\"\\s*:\\s*\"([a-z]+)\"").matcher(a.body);
                    states.put(ids.get(i), a == null ? "unreadable" : a.status == 404 ? "missing"
                            : m.find() ? m.group(1) : "status " + a.status);
                }
            }));
        }
        for (Thread r : readers) {
            r.join();
        }
        Map<String, Integer> byState = new java.util.TreeMap<>();
        states.values().forEach(s -> byState.merge(s, 1, Integer::sum));
        long lost = states.values().stream().filter(s -> !s.equals("completed")).count();
        states.forEach((id, s) -> {
            if (!s.equals("completed")) {
                example("lost: job " + id + " is " + s);
            }
        });
        long twice = accepted.values().stream().filter(c -> c.get() > 1).count();
        Map<String, List<Hold>> byJob = new HashMap<>();
        holds.forEach(h -> byJob.computeIfAbsent(h.job, k -> new ArrayList<>()).add(h));
        long overlapping = 0;
        for (List<Hold> hs : byJob.values()) {
            boolean overlap = false;
            for (int i = 0; i < hs.size() && !overlap; i++) {
                for (int j = i + 1; j < hs.size() && !overlap; j++) {
                    Hold a = hs.get(i), b = hs.get(j);
                    if (Math.max(a.start(), b.start()) < Math.min(a.end(), b.end())) {
                        overlap = true;
                        example(String.format(Locale.ROOT, "overlap: job %s held by %s [%.3f, %.3f] and %s [%.3f, %.3f]",
                                a.job, a.worker, a.start() / 1e9, a.end() / 1e9, b.worker, b.start() / 1e9, b.end() / 1e9));
                    }
                }
            }
            overlapping += overlap ? 1 : 0;
        }
        long redelivered = byJob.values().stream().filter(hs -> hs.size() > 1).count();
        long f5xx = Math.max(0, fuzz5xx), fNoEnv = Math.max(0, fuzzNoEnvelope);
        System.out.println();
        System.out.printf(Locale.ROOT, "faults: %d instances, %d jobs over %d s by %d producers; %d workers (lease %d ms)"
                        + " and %d slow workers (lease %d ms, %d ms per job, no heartbeat); fuzz %d requests%s%n",
                instances, jobs, seconds, producers, workers, leaseMs, slowWorkers, slowLeaseMs, slowMs, fuzzRequests,
                (skew == null ? "" : "; instance 1's clock " + skew) + (clock == null ? "" : "; clock " + clock));
        timeline.forEach(l -> System.out.println("  " + l));
        System.out.printf("jobs created %d, final states %s, deliveries %d, jobs delivered more than once %d%n",
                created.size(), byState, holds.size(), redelivered);
        System.out.printf("requests %d: 503 %d (database away, retried), connection failures %d (killed instance,"
                + " retried), unexpected 4xx %d%n", requests.get(), answers503.get(), connectionFailures.get(),
                unexpected4xx.get());
        failureKinds.forEach((k, v) -> System.out.println("  connection failures: " + v + " x " + k));
        System.out.printf("late answers (lease certainly over): with worker_id %d sent, %d accepted; without worker_id"
                        + " %d sent, %d accepted (taken as the current holder's answer)%n",
                late[0].get() + late[1].get(), late[1].get(), late[2].get() + late[3].get(), late[3].get());
        System.out.printf("session key: an instance without the shared key %s; events shared across instances: %s%n",
                refusedWithoutKey ? "refused to start" : "DID NOT refuse to start",
                eventsMs >= 0 ? "yes (" + eventsMs + " ms)" : "NO");
        System.out.printf("RESULT lost=%d completed_twice=%d overlapping_leases=%d answers_500=%d other_5xx=%d"
                        + " without_envelope=%d late_named_accepted=%d late_anonymous_accepted=%d late_anonymous=%d%n",
                lost, twice, overlapping, answers500.get() + (fuzz5xx > 0 ? f5xx : 0), answersOther5xx.get(),
                noEnvelope.get() + fNoEnv, late[1].get(), late[3].get(), late[2].get() + late[3].get());
        synchronized (examples) {
            examples.stream().limit(20).forEach(e -> System.out.println("  " + e));
        }
        long errorLines = 0;
        for (int i = 0; i < instances; i++) { // not the instance that had to refuse to start
            Path p = logs.resolve("instance-" + i + ".log");
            if (Files.exists(p)) {
                // plain text (" ERROR ") or the production JSON lines ("level":"ERROR")
                errorLines += Files.readAllLines(p).stream()
                        .filter(l -> l.contains(" ERROR ") || l.contains("\"level\":\"ERROR\"")).count();
            }
        }
        System.out.println("server logs (" + logs + "/instance-*.log): " + errorLines + " ERROR lines");
        boolean bad = lost + twice + overlapping + answers500.get() + answersOther5xx.get() + noEnvelope.get()
                + f5xx + fNoEnv + late[1].get() + unexpected4xx.get() + Math.max(0, fuzzOthers) > 0
                || !refusedWithoutKey || eventsMs < 0 || fuzzRequests > 0 && fuzz5xx < 0;
        System.exit(bad ? 1 : 0);
    }

    // ---- servers

    static Process startServer(int i, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder("java", heap, "-jar", jar);
        pb.environment().putAll(env);
        pb.environment().put("QUARKUS_HTTP_PORT", String.valueOf(basePort + i));
        if (clock != null) {
            pb.environment().put("STEADFAST_CLOCK_SOURCE", clock);
        }
        if (skew != null && i == 1) { // instance 1's machine clock is off by --skew (libfaketime)
            pb.environment().put("LD_PRELOAD", FAKETIME);
            pb.environment().put("FAKETIME", skew);
            pb.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        }
        Path log = logs.resolve("instance-" + i + ".log");
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        return pb.start();
    }

    static void awaitHealthy(int i, Process p) throws Exception {
        long until = System.nanoTime() + 180_000_000_000L;
        while (System.nanoTime() < until) {
            if (!p.isAlive()) {
                die("instance " + i + " exited; see " + logs + "/instance-" + i + ".log");
            }
            PROBE.set(true); // start-up polls are not part of the run's counts
            Answer a = get(i, "/ojs/v1/health");
            PROBE.set(false);
            if (a != null && a.status == 200) {
                return;
            }
            Thread.sleep(250);
        }
        die("instance " + i + " did not become healthy");
    }

    // ---- HTTP (keep-alive connections per thread and instance)

    record Answer(int status, String body) {
    }

    static final ThreadLocal<Boolean> PROBE = ThreadLocal.withInitial(() -> false);
    static final ThreadLocal<Map<Integer, Conn>> CONNS = ThreadLocal.withInitial(HashMap::new);

    static Answer post(int instance, String path, String body) {
        return send(instance, "POST", path, body);
    }

    static Answer get(int instance, String path) {
        return send(instance, "GET", path, null);
    }

    /** Sends to {@code instance}, or the next one up when it is down; null when the outcome is unknown. */
    static Answer send(int instance, String method, String path, String body) {
        int i = instance;
        boolean probe = PROBE.get();
        for (int k = 0; k < instances && !probe && downUntil.get(i) > System.nanoTime(); k++) {
            i = (i + 1) % instances;
        }
        Map<Integer, Conn> conns = CONNS.get();
        if (!probe) {
            requests.incrementAndGet();
        }
        try {
            Conn c = conns.get(i);
            if (c == null) {
                c = new Conn(basePort + i);
                conns.put(i, c);
            }
            Answer a = c.send(method, path, body);
            if (c.closed) {
                conns.remove(i).close();
            }
            check(a, method, path);
            return a;
        } catch (IOException e) {
            Conn c = conns.remove(i);
            if (c != null) {
                c.close();
            }
            if (probe) {
                return null;
            }
            connectionFailures.incrementAndGet();
            failureKinds.computeIfAbsent("instance " + i + ": " + e.getClass().getSimpleName() + " " + e.getMessage(),
                    k -> new AtomicLong()).incrementAndGet();
            return null;
        }
    }

    static void check(Answer a, String method, String path) {
        if (a.status == 500) {
            answers500.incrementAndGet();
            example("500 for " + method + " " + path + ": " + cut(a.body));
        } else if (a.status == 503) {
            answers503.incrementAndGet();
        } else if (a.status > 500) {
            answersOther5xx.incrementAndGet();
            example(a.status + " for " + method + " " + path + ": " + cut(a.body));
        }
        if (a.status >= 400 && !(a.body.contains("\"error\":{") && a.body.contains("\"code\":")
                && a.body.contains("\"message\":"))) {
            noEnvelope.incrementAndGet();
            example("no envelope: " + a.status + " for " + method + " " + path + ": " + cut(a.body));
        }
    }

    static final class Conn {
        final Socket socket = new Socket();
        final OutputStream out;
        final InputStream in;
        boolean closed;

        Conn(int port) throws IOException {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream());
        }

        Answer send(String method, String path, String body) throws IOException {
            byte[] b = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            String head = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                    + "\r\n" + (body == null ? "" : "Content-Type: application/json\r\n") + "Content-Length: "
                    + b.length + "\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(b);
            out.flush();
            String status = line();
            String[] parts = status.split(" ");
            if (parts.length < 2) {
                throw new IOException("bad status line: " + status);
            }
            int code = Integer.parseInt(parts[1]);
            int length = 0;
            boolean chunked = false, close = false;
            for (String l = line(); !l.isEmpty(); l = line()) {
                String lower = l.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Integer.parseInt(l.substring(15).trim());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                } else if (lower.startsWith("connection:") && lower.contains("close")) {
                    close = true;
                }
            }
            ByteArrayOutputStream bo = new ByteArrayOutputStream();
            if (chunked) {
                for (int n = Integer.parseInt(line().trim(), 16); n > 0; n = Integer.parseInt(line().trim(), 16)) {
                    bo.write(in.readNBytes(n));
                    line();
                }
                line();
            } else {
                bo.write(in.readNBytes(length));
            }
            closed = close;
            return new Answer(code, bo.toString(StandardCharsets.UTF_8));
        }

        String line() throws IOException {
            StringBuilder s = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                if (c != '\r') {
                    s.append((char) c);
                }
            }
            return s.toString();
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
    }

    // ---- small things

    static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");

    static Set<String> ids(String fetchBody) {
        Set<String> out = new LinkedHashSet<>(); // the answer carries the first job twice ("job" and "jobs")
        Matcher m = ID.matcher(fetchBody);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    static String uuid7() {
        long ms = System.currentTimeMillis();
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long hi = (ms << 16) | 0x7000L | (r.nextInt() & 0x0fff);
        long lo = (r.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new java.util.UUID(hi, lo).toString();
    }

    static long now() {
        return System.nanoTime() - T0;
    }

    static void sleepUntil(long nanoTime) {
        long d = nanoTime - System.nanoTime();
        if (d > 0) {
            sleep(d / 1_000_000);
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(Math.max(0, ms));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.start();
        return t;
    }

    static void say(String format, Object... args) {
        String line = String.format(Locale.ROOT, "[%6.1f s] ", now() / 1e9) + String.format(Locale.ROOT, format, args);
        timeline.add(line);
        System.out.println(line);
    }

    static void example(String s) {
        if (examples.size() < 100) {
            examples.add(s);
        }
    }

    static String cut(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    static String command(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            die(String.join(" ", cmd) + " failed");
        }
        return out;
    }

    static void die(String message) {
        System.err.println("faults: " + message);
        System.exit(2);
    }

    static void parse(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--jar" -> jar = args[++i];
                case "--db" -> db = args[++i];
                case "--instances" -> instances = Integer.parseInt(args[++i]);
                case "--base-port" -> basePort = Integer.parseInt(args[++i]);
                case "--jobs" -> jobs = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--producers" -> producers = Integer.parseInt(args[++i]);
                case "--workers" -> workers = Integer.parseInt(args[++i]);
                case "--slow-workers" -> slowWorkers = Integer.parseInt(args[++i]);
                case "--lease-ms" -> leaseMs = Integer.parseInt(args[++i]);
                case "--slow-lease-ms" -> slowLeaseMs = Integer.parseInt(args[++i]);
                case "--slow-ms" -> slowMs = Integer.parseInt(args[++i]);
                case "--work-ms" -> workMs = Integer.parseInt(args[++i]);
                case "--fuzz-requests" -> fuzzRequests = Integer.parseInt(args[++i]);
                case "--drain-seconds" -> drainSeconds = Integer.parseInt(args[++i]);
                case "--heap" -> heap = args[++i];
                case "--logs" -> logs = Path.of(args[++i]);
                case "--skew" -> skew = args[++i];
                case "--clock" -> clock = args[++i];
                case "--no-kill" -> kill = false;
                case "--no-db-restart" -> restartDb = false;
                default -> {
                    System.out.println("usage: java scripts/Faults.java [--instances 3] [--jobs 3000] [--seconds 30]"
                            + " [--producers 8] [--workers 6] [--slow-workers 2] [--lease-ms 5000] [--slow-lease-ms 1000]"
                            + " [--slow-ms 1500] [--work-ms 5] [--fuzz-requests 1500] [--drain-seconds 120]"
                            + " [--base-port 18181] [--db steadfast_faults] [--jar target/quarkus-app/quarkus-run.jar]"
                            + " [--heap -Xmx384m] [--logs target/faults] [--no-kill] [--no-db-restart]"
                            + " [--skew +20s (instance 1's clock, with libfaketime)] [--clock database|system]");
                    System.exit(a.equals("--help") ? 0 : 2);
                }
            }
        }
        if (instances < 1 || instances > 8 || jobs < 1 || seconds < 1) {
            die("--instances must be 1-8, --jobs and --seconds positive");
        }
        if (skew != null && (instances < 2 || !Files.exists(Path.of(FAKETIME)))) {
            die("--skew needs two instances or more and libfaketime (Debian: apt-get install libfaketime)");
        }
    }
}
