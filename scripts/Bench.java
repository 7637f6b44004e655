import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

/**
 * Bench: a small, dependency-free HTTP load tool for Steadfast (or any server speaking the
 * Open Job Spec HTTP binding, sections 9.1, 9.2, 10.1 and 10.2).
 *
 * <p>Run with Java's single-file source launcher: {@code java scripts/Bench.java --help}.
 *
 * <p>What it measures, one result line per phase:
 * <ol>
 *   <li><b>enqueue</b>: {@code --connections} concurrent keep-alive connections POST single jobs to
 *       {@code /ojs/v1/jobs} until {@code --jobs} are enqueued into a fresh queue. Reports jobs/s and
 *       request latency p50/p99.</li>
 *   <li><b>batch-enqueue</b>: the same, but {@code --batch} jobs per POST to {@code /ojs/v1/jobs/batch}.
 *       A 404/405 on the first batch means "not supported": the phase is skipped with a note.</li>
 *   <li><b>process</b>: {@code --workers} worker loops; each fetches up to {@code --fetch-count} jobs
 *       from {@code /ojs/v1/workers/fetch}, acks them (at most {@code --ack-concurrency} acks in flight
 *       per worker), waits for those acks, and fetches again. A worker stops when a fetch returns no
 *       jobs and every enqueued job has been acked (or its ack failed), or at the timeout. Reports
 *       acked jobs / wall time, ack latency p50/p99, acked vs enqueued, and duplicate deliveries
 *       (a job id seen twice; duplicates are counted, not acked).</li>
 *   <li><b>rss</b>: with {@code --server-pid}, VmRSS/VmHWM of the server from {@code /proc/PID/status}
 *       before the run and after the last phase.</li>
 * </ol>
 * A {@code --warmup} run (enqueue + process on a separate queue) precedes the measured phases and is
 * not counted. The last line, {@code RESULT ...}, is meant to be pasted into a README table.
 *
 * <p>How: one {@link HttpClient} per {@link #CLIENTS} slice of the load, forced to HTTP/1.1 and
 * sharing a small fixed thread pool; the client keeps one keep-alive connection per concurrent
 * request, so the open connection count tracks the configured concurrency. Latencies are
 * {@link System#nanoTime()} deltas, sorted for nearest-rank percentiles. Responses are not
 * JSON-parsed; {@link Json#ids} scans them for job ids only.
 *
 * <p>Exit codes: 0 success; 1 acked != enqueued, duplicates, or failed requests; 2 usage error or
 * server unreachable.
 */
public final class Bench {

    static final String USAGE = """
        usage: java scripts/Bench.java [options]

        Load-tests an OJS HTTP server (Steadfast): enqueue, batch-enqueue, fetch+ack.

          --url URL               server base URL                       (default http://127.0.0.1:8080)
          --jobs N                jobs per enqueue phase                (default 20000)
          --connections C         concurrent connections for enqueues   (default 32)
          --workers W             concurrent worker loops in process    (default 8)
          --fetch-count N         jobs per fetch                        (default 50)
          --ack-concurrency N     acks in flight per worker             (default 16)
          --batch N               jobs per batch-enqueue request        (default 100)
          --queue NAME            queue name            (default bench-<epochmillis>, fresh per run)
          --warmup N              jobs enqueued+processed first, not counted (default 2000, 0 = off)
          --timeout S             max seconds per phase                 (default 120)
          --phases LIST           comma list of enqueue,batch,process   (default all three)
          --server-pid PID|auto   report server VmRSS/VmHWM; auto = process listening on the URL's port
          --help                  show this text

        'process' acks what this run's enqueue/batch phases enqueued. Run alone it needs --queue
        and expects --jobs jobs in that queue.
        Exit: 0 ok, 1 acked != enqueued / duplicates / request errors, 2 usage or unreachable server.
        """;

    static final String CONTENT_TYPE = "application/openjobspec+json";
    static final String QUEUE_PATTERN = "[a-z0-9][a-z0-9.\\-]{0,127}";
    /** Number of HttpClient instances; requests are spread across them. */
    static final int CLIENTS = Integer.getInteger("bench.clients", 2);
    static final boolean ASYNC = Boolean.getBoolean("bench.async");

    public static void main(String[] args) {
        Options opt;
        try {
            opt = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage() + "\n");
            System.err.print(USAGE);
            System.exit(2);
            return;
        }
        if (opt.help) {
            System.out.print(USAGE);
            return;
        }
        System.exit(new Bench(opt).run());
    }

    private final Options opt;
    private final Http http;
    private boolean failed;

    Bench(Options opt) {
        this.opt = opt;
        int maxInFlight = Math.max(opt.connections, opt.workers * (opt.ackConcurrency + 1));
        this.http = new Http(opt.url, CLIENTS, Duration.ofSeconds(Math.min(opt.timeout, 30)), maxInFlight);
    }

    int run() {
        try {
            return runPhases();
        } catch (Unreachable e) {
            System.err.println("error: cannot reach server at " + opt.url + ": " + e.getMessage());
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } finally {
            http.close();
        }
    }

    private int runPhases() throws InterruptedException {
        http.checkReachable();
        long pid = resolveServerPid();
        Rss rssBefore = pid > 0 ? Rss.read(pid) : null;
        System.out.printf(Locale.ROOT, "bench: url=%s queue=%s jobs=%d connections=%d workers=%d fetch=%d"
                + " ack-concurrency=%d batch=%d model=%s clients=%d%n", opt.url, opt.queue, opt.jobs,
                opt.connections, opt.workers, opt.fetchCount, opt.ackConcurrency, opt.batch,
                ASYNC ? "async" : "blocking", CLIENTS);
        warmup();

        Result enq = null, batch = null;
        ProcessResult proc = null;
        int enqueued = 0;
        if (opt.phases.contains("enqueue")) {
            enq = report(enqueuePhase("enqueue", opt.queue, opt.jobs, 0));
            enqueued += enq.jobs;
        }
        if (opt.phases.contains("batch")) {
            batch = report(batchPhase(opt.queue, opt.jobs, opt.jobs));
            enqueued += batch.jobs;
        }
        if (opt.phases.contains("process")) {
            boolean standalone = !opt.phases.contains("enqueue") && !opt.phases.contains("batch");
            proc = report(processPhase("process", opt.queue, standalone ? opt.jobs : enqueued));
        }
        Rss rssAfter = pid > 0 ? Rss.read(pid) : null;
        reportRss(rssBefore, rssAfter);
        System.out.println(summary(enq, batch, proc, rssAfter));
        return failed ? 1 : 0;
    }

    // ---------------------------------------------------------------- phases

    /** Enqueue and process --warmup jobs on a side queue so JIT and connections are warm. */
    private void warmup() throws InterruptedException {
        if (opt.warmup == 0) return;
        String queue = opt.queue + "-warmup";
        long t0 = System.nanoTime();
        Result e = enqueuePhase("warmup", queue, opt.warmup, 0);
        ProcessResult p = processPhase("warmup", queue, e.jobs);
        System.out.printf(Locale.ROOT, "%-14s %d jobs enqueued, %d acked in %.2fs (not counted)%n",
                "warmup", e.jobs, p.acked, secs(System.nanoTime() - t0));
    }

    /** Phase 1: single-job POSTs over C connections until {@code jobs} are enqueued. */
    private Result enqueuePhase(String name, String queue, int jobs, int argBase) throws InterruptedException {
        Result r = new Result(name, jobs);
        AtomicInteger next = new AtomicInteger();
        long deadline = deadline();
        long t0 = System.nanoTime();
        forEachRequest(opt.connections, deadline, () -> {
            int i = next.getAndIncrement();
            return i < jobs ? i : -1;
        }, i -> new Req("/ojs/v1/jobs", jobJson(queue, argBase + i)), (i, resp) -> {
            r.latency.record(resp.nanos);
            if (resp.status == 201) r.addJobs(1); else r.error(resp);
        }, r);
        r.finish(System.nanoTime() - t0, next.get() < jobs);
        return r;
    }

    /** Phase 2: batch POSTs of --batch jobs; skipped if the first batch gets 404/405. */
    private Result batchPhase(String queue, int jobs, int argBase) throws InterruptedException {
        Result r = new Result("batch-enqueue", jobs);
        long deadline = deadline();
        long t0 = System.nanoTime();
        Response first = http.post("/ojs/v1/jobs/batch", batchJson(queue, argBase, Math.min(opt.batch, jobs)), 0);
        if (first.status == 404 || first.status == 405) {
            r.skipped = "POST /ojs/v1/jobs/batch returned " + first.status + ": batch enqueue not supported";
            return r;
        }
        recordBatch(r, first, Math.min(opt.batch, jobs));
        AtomicInteger next = new AtomicInteger(Math.min(opt.batch, jobs));
        forEachRequest(opt.connections, deadline, () -> {
            int start = next.getAndAdd(opt.batch);
            return start < jobs ? start : -1;
        }, start -> new Req("/ojs/v1/jobs/batch",
                batchJson(queue, argBase + start, Math.min(opt.batch, jobs - start))),
           (start, resp) -> recordBatch(r, resp, Math.min(opt.batch, jobs - start)), r);
        r.finish(System.nanoTime() - t0, next.get() < jobs);
        return r;
    }

    private static void recordBatch(Result r, Response resp, int size) {
        r.latency.record(resp.nanos);
        if (resp.status != 201) {
            r.error(resp);
            return;
        }
        int ids = Json.ids(resp.body, 3).size();
        r.addJobs(ids > 0 ? ids : Json.intField(resp.body, "count", size));
    }

    /** Phase 3: W worker loops fetch + ack until {@code expected} jobs are acked (or timeout). */
    private ProcessResult processPhase(String name, String queue, int expected) throws InterruptedException {
        ProcessResult r = new ProcessResult(name, expected);
        long deadline = deadline();
        long t0 = System.nanoTime();
        runThreads(opt.workers, "worker", w -> {
            try {
                new Worker(w, queue, r, deadline).loop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        r.finish(System.nanoTime() - t0, System.nanoTime() > deadline);
        return r;
    }

    /** One worker loop of the process phase. */
    private final class Worker {
        private final String workerId;
        private final String queue;
        private final ProcessResult r;
        private final long deadline;
        private final int slot;
        private final Semaphore inFlight = new Semaphore(opt.ackConcurrency);
        private final ExecutorService ackPool;

        Worker(int index, String queue, ProcessResult r, long deadline) {
            this.workerId = "bench-" + ProcessHandle.current().pid() + "-w" + index;
            this.slot = index;
            this.queue = queue;
            this.r = r;
            this.deadline = deadline;
            this.ackPool = ASYNC ? null : Executors.newFixedThreadPool(opt.ackConcurrency);
        }

        void loop() throws InterruptedException {
            try {
                String fetchBody = "{\"queues\":[\"" + queue + "\"],\"count\":" + opt.fetchCount
                        + ",\"worker_id\":\"" + workerId + "\"}";
                int consecutiveErrors = 0;
                while (System.nanoTime() < deadline && consecutiveErrors < 20) {
                    Response resp = http.post("/ojs/v1/workers/fetch", fetchBody, slot);
                    if (resp.status != 200) {
                        r.error(resp);
                        consecutiveErrors++;
                        Thread.sleep(10);
                        continue;
                    }
                    consecutiveErrors = 0;
                    List<String> ids = Json.ids(resp.body, 3);
                    if (ids.isEmpty()) {
                        if (r.settled()) return;
                        r.emptyFetches.incrementAndGet();
                        Thread.sleep(1); // others still have acks in flight
                        continue;
                    }
                    ackAll(ids);
                }
            } finally {
                if (ackPool != null) ackPool.shutdown();
            }
        }

        /** Acks every new id with at most --ack-concurrency in flight, and waits for all of them. */
        private void ackAll(List<String> ids) throws InterruptedException {
            for (String id : ids) {
                if (!r.seen.add(id)) {
                    r.duplicates.incrementAndGet();
                    continue;
                }
                inFlight.acquire();
                String body = "{\"job_id\":\"" + id + "\",\"worker_id\":\"" + workerId + "\"}";
                if (ASYNC) {
                    http.postAsync("/ojs/v1/workers/ack", body).whenComplete((resp, ex) -> {
                        recordAck(resp, ex);
                        inFlight.release();
                    });
                } else {
                    ackPool.execute(() -> {
                        try {
                            recordAck(http.post("/ojs/v1/workers/ack", body, slot), null);
                        } catch (Throwable t) {
                            recordAck(null, t);
                        } finally {
                            inFlight.release();
                        }
                    });
                }
            }
            inFlight.acquire(opt.ackConcurrency);
            inFlight.release(opt.ackConcurrency);
        }

        private void recordAck(Response resp, Throwable ex) {
            if (ex != null) {
                r.ackFailed.incrementAndGet();
                r.error(ex);
            } else if (resp.status == 200) {
                r.latency.record(resp.nanos);
                r.addJobs(1);
            } else {
                r.ackFailed.incrementAndGet();
                r.error(resp);
            }
        }
    }

    // ---------------------------------------------------------------- request driver

    interface NextTask { int next(); }
    record Req(String path, String body) {}
    interface Send { Req request(int task); }
    interface OnResponse { void accept(int task, Response resp); }

    /**
     * Runs tasks until {@code next} returns -1 or the deadline passes, with at most {@code concurrency}
     * requests in flight. Model (measured on 2 cores, see class notes): ...
     */
    private void forEachRequest(int concurrency, long deadline, NextTask next, Send send,
                                OnResponse onResponse, Result r) throws InterruptedException {
        if (ASYNC) {
            Semaphore inFlight = new Semaphore(concurrency);
            while (System.nanoTime() < deadline) {
                inFlight.acquire();
                int task = next.next();
                if (task < 0) { inFlight.release(); break; }
                Req req = send.request(task);
                http.postAsync(req.path, req.body).whenComplete((resp, ex) -> {
                    if (ex != null) r.error(ex); else onResponse.accept(task, resp);
                    inFlight.release();
                });
            }
            inFlight.acquire(concurrency);
            return;
        }
        runThreads(concurrency, "conn", c -> {
            int task;
            while (System.nanoTime() < deadline && (task = next.next()) >= 0) {
                try {
                    Req req = send.request(task);
                    onResponse.accept(task, http.post(req.path, req.body, c));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        });
    }

    /** Starts {@code n} platform threads running {@code body(index)} and waits for all of them. */
    private static void runThreads(int n, String name, IntConsumer body) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            Thread t = new Thread(() -> body.accept(index), name + "-" + i);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) t.join();
    }

    private long deadline() {
        return System.nanoTime() + opt.timeout * 1_000_000_000L;
    }

    private static String jobJson(String queue, int arg) {
        return "{\"type\":\"bench.noop\",\"args\":[" + arg + "],\"options\":{\"queue\":\"" + queue + "\"}}";
    }

    private static String batchJson(String queue, int firstArg, int size) {
        StringBuilder sb = new StringBuilder(64 * size + 16).append("{\"jobs\":[");
        for (int i = 0; i < size; i++) {
            if (i > 0) sb.append(',');
            sb.append(jobJson(queue, firstArg + i));
        }
        return sb.append("]}").toString();
    }

    // ---------------------------------------------------------------- reporting

    private <R extends Result> R report(R r) {
        System.out.println(r.line());
        for (String w : r.warnings()) {
            System.out.println("WARNING: " + w);
            failed = true;
        }
        return r;
    }

    private void reportRss(Rss before, Rss after) {
        if (before == null || after == null) return;
        System.out.printf(Locale.ROOT, "%-14s pid=%d before VmRSS=%.0fMiB VmHWM=%.0fMiB  after VmRSS=%.0fMiB"
                + " VmHWM=%.0fMiB%n", "server-rss", after.pid, before.rssMiB(), before.hwmMiB(),
                after.rssMiB(), after.hwmMiB());
    }

    private static String summary(Result enq, Result batch, ProcessResult proc, Rss rss) {
        return String.format(Locale.ROOT, "RESULT enqueue=%s batch_enqueue=%s process=%s ack_p99=%s rss=%s",
                rate(enq), rate(batch), rate(proc),
                proc == null || proc.latency.count() == 0 ? "n/a" : String.format(Locale.ROOT, "%.1fms",
                        proc.latency.percentileMs(0.99)),
                rss == null ? "n/a" : String.format(Locale.ROOT, "%.0fMiB", rss.rssMiB()));
    }

    private static String rate(Result r) {
        return r == null || r.skipped != null ? "n/a" : String.format(Locale.ROOT, "%.0f/s", r.rate());
    }

    static double secs(long nanos) {
        return nanos / 1e9;
    }

    // ---------------------------------------------------------------- server pid / RSS

    private long resolveServerPid() {
        if (opt.serverPid == null) return -1;
        if (!opt.serverPid.equals("auto")) return Long.parseLong(opt.serverPid);
        int port = URI.create(opt.url).getPort();
        if (port < 0) port = opt.url.startsWith("https") ? 443 : 80;
        long pid = ListenerLookup.pidListeningOn(port);
        if (pid < 0) {
            System.out.println("note: --server-pid auto found no readable process listening on port " + port
                    + "; RSS not reported (pass the PID explicitly)");
        } else {
            System.out.println("note: server pid " + pid + " (" + ListenerLookup.comm(pid) + ") listens on port " + port);
        }
        return pid;
    }

    /** VmRSS and VmHWM (kB) from /proc/PID/status. */
    record Rss(long pid, long rssKb, long hwmKb) {
        static Rss read(long pid) {
            try {
                List<String> lines = Files.readAllLines(Path.of("/proc/" + pid + "/status"));
                return new Rss(pid, kb(lines, "VmRSS:"), kb(lines, "VmHWM:"));
            } catch (IOException e) {
                System.out.println("note: cannot read /proc/" + pid + "/status (" + e.getMessage() + ")");
                return null;
            }
        }

        private static long kb(List<String> lines, String key) {
            return lines.stream().filter(l -> l.startsWith(key))
                    .mapToLong(l -> Long.parseLong(l.substring(key.length()).trim().split("\\s+")[0]))
                    .findFirst().orElse(-1);
        }

        double rssMiB() { return rssKb / 1024.0; }
        double hwmMiB() { return hwmKb / 1024.0; }
    }

    /** Finds the process owning a LISTEN socket: inode from /proc/net/tcp{,6}, then /proc/PID/fd links. */
    static final class ListenerLookup {
        static long pidListeningOn(int port) {
            Set<String> inodes = ConcurrentHashMap.newKeySet();
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) inodes.addAll(listenInodes(table, port));
            if (inodes.isEmpty()) return -1;
            long self = ProcessHandle.current().pid();
            try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
                return procs.map(p -> p.getFileName().toString())
                        .filter(s -> s.chars().allMatch(Character::isDigit))
                        .mapToLong(Long::parseLong)
                        .filter(pid -> pid != self && ownsSocket(pid, inodes))
                        .findFirst().orElse(-1);
            } catch (IOException e) {
                return -1;
            }
        }

        private static List<String> listenInodes(String table, int port) {
            List<String> out = new ArrayList<>();
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length < 10 || !f[1].contains(":") || !f[3].equals("0A")) continue;
                    if (Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16) == port) out.add(f[9]);
                }
            } catch (IOException | NumberFormatException ignored) {
                // table missing (no IPv6) or unreadable: nothing found here
            }
            return out;
        }

        private static boolean ownsSocket(long pid, Set<String> inodes) {
            try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
                return fds.anyMatch(fd -> {
                    try {
                        String link = Files.readSymbolicLink(fd).toString();
                        return link.startsWith("socket:[") && inodes.contains(link.substring(8, link.length() - 1));
                    } catch (IOException e) {
                        return false;
                    }
                });
            } catch (IOException | SecurityException e) {
                return false; // other users' processes are not readable
            }
        }

        static String comm(long pid) {
            try {
                return Files.readString(Path.of("/proc/" + pid + "/comm")).trim();
            } catch (IOException e) {
                return "?";
            }
        }
    }

    // ---------------------------------------------------------------- results

    /** Counters and latencies of one phase. Thread-safe. */
    static class Result {
        final String name;
        final int target;
        final Latencies latency;
        final AtomicInteger jobsDone = new AtomicInteger();
        final AtomicInteger errors = new AtomicInteger();
        final AtomicReference<String> firstError = new AtomicReference<>();
        int jobs;
        long nanos;
        boolean timedOut;
        String skipped;

        Result(String name, int target) {
            this.name = name;
            this.target = target;
            this.latency = new Latencies(target + 1024);
        }

        void addJobs(int n) { jobsDone.addAndGet(n); }

        void error(Response resp) {
            errors.incrementAndGet();
            String body = resp.body.length() > 200 ? resp.body.substring(0, 200) + "..." : resp.body;
            firstError.compareAndSet(null, "HTTP " + resp.status + " " + body);
        }

        void error(Throwable t) {
            errors.incrementAndGet();
            Throwable cause = t.getCause() != null ? t.getCause() : t;
            firstError.compareAndSet(null, cause.getClass().getSimpleName() + ": " + cause.getMessage());
        }

        void finish(long nanos, boolean timedOut) {
            this.nanos = nanos;
            this.timedOut = timedOut;
            this.jobs = jobsDone.get();
        }

        double rate() { return nanos == 0 ? 0 : jobs / secs(nanos); }

        String line() {
            if (skipped != null) return String.format("%-14s skipped: %s", name, skipped);
            return String.format(Locale.ROOT, "%-14s %7d jobs in %6.2fs %9.0f jobs/s  latency p50=%.2fms p99=%.2fms"
                    + "  requests=%d errors=%d", name, jobs, secs(nanos), rate(), latency.percentileMs(0.50),
                    latency.percentileMs(0.99), latency.count(), errors.get());
        }

        List<String> warnings() {
            List<String> w = new ArrayList<>();
            if (timedOut) w.add(name + " hit the timeout; " + jobs + " of " + target + " jobs done");
            if (errors.get() > 0) w.add(name + ": " + errors.get() + " failed requests, first: " + firstError.get());
            return w;
        }
    }

    /** Result of the process phase: adds duplicates, ack failures and the acked-vs-enqueued check. */
    static final class ProcessResult extends Result {
        final Set<String> seen;
        final AtomicInteger duplicates = new AtomicInteger();
        final AtomicInteger ackFailed = new AtomicInteger();
        final AtomicInteger emptyFetches = new AtomicInteger();
        int acked;

        ProcessResult(String name, int expected) {
            super(name, expected);
            this.seen = ConcurrentHashMap.newKeySet(expected * 2);
        }

        /** All expected jobs are acked or failed to ack: nothing more to wait for. */
        boolean settled() { return jobsDone.get() + ackFailed.get() >= target; }

        @Override
        void finish(long nanos, boolean timedOut) {
            super.finish(nanos, timedOut && !settled());
            acked = jobs;
        }

        @Override
        String line() {
            return String.format(Locale.ROOT, "%-14s %7d jobs in %6.2fs %9.0f jobs/s  ack p50=%.2fms p99=%.2fms"
                    + "  acked=%d/%d duplicates=%d empty-fetches=%d errors=%d", name, jobs, secs(nanos), rate(),
                    latency.percentileMs(0.50), latency.percentileMs(0.99), acked, target, duplicates.get(),
                    emptyFetches.get(), errors.get());
        }

        @Override
        List<String> warnings() {
            List<String> w = super.warnings();
            if (acked != target) w.add(name + ": acked " + acked + " jobs but " + target + " were enqueued");
            if (duplicates.get() > 0) w.add(name + ": " + duplicates.get() + " duplicate job ids were fetched");
            return w;
        }
    }

    /** Fixed-capacity, thread-safe recorder of latencies in nanos. */
    static final class Latencies {
        private final long[] values;
        private final AtomicInteger n = new AtomicInteger();
        private long[] sorted;

        Latencies(int capacity) { values = new long[capacity]; }

        void record(long nanos) {
            int i = n.getAndIncrement();
            if (i < values.length) values[i] = nanos;
        }

        int count() { return Math.min(n.get(), values.length); }

        /** Nearest-rank percentile in ms; call only after the phase has finished. */
        double percentileMs(double p) {
            if (count() == 0) return Double.NaN;
            if (sorted == null) {
                sorted = Arrays.copyOf(values, count());
                Arrays.sort(sorted);
            }
            int rank = (int) Math.ceil(p * sorted.length) - 1;
            return sorted[Math.max(0, rank)] / 1e6;
        }
    }

    // ---------------------------------------------------------------- HTTP

    record Response(int status, String body, long nanos) {}

    static final class Unreachable extends RuntimeException {
        Unreachable(String msg) { super(msg); }
    }

    /** Keep-alive HTTP/1.1 POSTs spread over a few HttpClient instances sharing one small pool. */
    static final class Http {
        private final String base;
        private final HttpClient[] clients;
        private final ExecutorService pool;
        private final Duration requestTimeout;
        private final AtomicInteger roundRobin = new AtomicInteger();

        Http(String base, int clientCount, Duration requestTimeout, int maxInFlight) {
            this.base = base;
            this.requestTimeout = requestTimeout;
            this.pool = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()),
                    r -> {
                        Thread t = new Thread(r, "http-pool");
                        t.setDaemon(true);
                        return t;
                    });
            this.clients = new HttpClient[clientCount];
            for (int i = 0; i < clientCount; i++) {
                clients[i] = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5)).executor(pool).build();
            }
        }

        /** Blocking POST on the client picked by {@code slot}; IO errors become status -1. */
        Response post(String path, String json, int slot) throws InterruptedException {
            long t0 = System.nanoTime();
            try {
                HttpResponse<String> resp = clients[Math.floorMod(slot, clients.length)]
                        .send(request(path, json), HttpResponse.BodyHandlers.ofString());
                return new Response(resp.statusCode(), resp.body(), System.nanoTime() - t0);
            } catch (IOException e) {
                return new Response(-1, e.getClass().getSimpleName() + ": " + e.getMessage(), System.nanoTime() - t0);
            }
        }

        /** Async POST on the next client (round robin); completes with the response and its latency. */
        CompletableFuture<Response> postAsync(String path, String json) {
            HttpClient client = clients[Math.floorMod(roundRobin.getAndIncrement(), clients.length)];
            long t0 = System.nanoTime();
            return client.sendAsync(request(path, json), HttpResponse.BodyHandlers.ofString())
                    .thenApply(resp -> new Response(resp.statusCode(), resp.body(), System.nanoTime() - t0));
        }

        private HttpRequest request(String path, String json) {
            return HttpRequest.newBuilder(URI.create(base + path)).timeout(requestTimeout)
                    .header("Content-Type", CONTENT_TYPE).header("Accept", CONTENT_TYPE)
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build();
        }

        /** GET /ojs/v1/health: any HTTP answer means reachable; connection failures throw. */
        void checkReachable() throws InterruptedException {
            HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/ojs/v1/health"))
                    .timeout(Duration.ofSeconds(5)).header("Accept", CONTENT_TYPE).GET().build();
            try {
                clients[0].send(req, HttpResponse.BodyHandlers.discarding());
            } catch (ConnectException e) {
                throw new Unreachable("connection refused");
            } catch (IOException e) {
                throw new Unreachable(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }

        void close() {
            pool.shutdownNow();
        }
    }

    // ---------------------------------------------------------------- JSON scanning

    /** Just enough JSON scanning to pull job ids out of responses. */
    static final class Json {
        /**
         * String values of "id" keys whose object sits at nesting {@code depth} (counting both objects and
         * arrays): 2 for {"job":{"id":..}}, 3 for {"jobs":[{"id":..}, ...]}. Nested "id"s are ignored.
         */
        static List<String> ids(String json, int depth) {
            List<String> ids = new ArrayList<>();
            int level = 0;
            for (int i = 0; i < json.length(); i++) {
                char c = json.charAt(i);
                if (c == '{' || c == '[') level++;
                else if (c == '}' || c == ']') level--;
                else if (c == '"') {
                    int end = stringEnd(json, i);
                    int colon = skipSpace(json, end + 1);
                    if (level == depth && json.startsWith("id", i + 1) && end == i + 3
                            && colon < json.length() && json.charAt(colon) == ':') {
                        int v = skipSpace(json, colon + 1);
                        if (v < json.length() && json.charAt(v) == '"') {
                            int vEnd = stringEnd(json, v);
                            ids.add(json.substring(v + 1, vEnd));
                            end = vEnd;
                        }
                    }
                    i = end;
                }
            }
            return ids;
        }

        /** Integer value of the first top-level-or-nested {@code "key": N}, or {@code dflt}. */
        static int intField(String json, String key, int dflt) {
            var m = java.util.regex.Pattern.compile("\"" + key + "\"\\s*:\\s*(\\d+)").matcher(json);
            return m.find() ? Integer.parseInt(m.group(1)) : dflt;
        }

        /** Index of the closing quote of the string starting at {@code open}. */
        private static int stringEnd(String s, int open) {
            for (int i = open + 1; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '\\') i++;
                else if (c == '"') return i;
            }
            return s.length() - 1;
        }

        private static int skipSpace(String s, int i) {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
            return i;
        }
    }

    // ---------------------------------------------------------------- options

    static final class Options {
        String url = "http://127.0.0.1:8080";
        int jobs = 20_000, connections = 32, workers = 8, fetchCount = 50, ackConcurrency = 16, batch = 100;
        int warmup = 2000, timeout = 120;
        String queue = "bench-" + System.currentTimeMillis();
        Set<String> phases = Set.of("enqueue", "batch", "process");
        String serverPid;
        boolean help, queueGiven;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i], value = null;
                if (a.equals("--help") || a.equals("-h")) { o.help = true; continue; }
                int eq = a.indexOf('=');
                if (a.startsWith("--") && eq > 0) { value = a.substring(eq + 1); a = a.substring(0, eq); }
                else if (i + 1 < args.length) value = args[++i];
                if (value == null) throw new IllegalArgumentException("missing value for " + a);
                o.set(a, value);
            }
            o.validate();
            return o;
        }

        private void set(String name, String v) {
            switch (name) {
                case "--url" -> url = v.endsWith("/") ? v.substring(0, v.length() - 1) : v;
                case "--jobs" -> jobs = positive(name, v);
                case "--connections" -> connections = positive(name, v);
                case "--workers" -> workers = positive(name, v);
                case "--fetch-count" -> fetchCount = positive(name, v);
                case "--ack-concurrency" -> ackConcurrency = positive(name, v);
                case "--batch" -> batch = positive(name, v);
                case "--queue" -> { queue = v; queueGiven = true; }
                case "--warmup" -> warmup = nonNegative(name, v);
                case "--timeout" -> timeout = positive(name, v);
                case "--phases" -> phases = Set.copyOf(Arrays.asList(v.split(",")));
                case "--server-pid" -> serverPid = v;
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }

        private void validate() {
            if (!url.matches("https?://[^/]+(/.*)?")) throw new IllegalArgumentException("bad --url " + url);
            if (!queue.matches(QUEUE_PATTERN) || queue.length() > 120)
                throw new IllegalArgumentException("--queue must match [a-z0-9][a-z0-9.-]* (max 120 chars)");
            if (phases.isEmpty() || !Set.of("enqueue", "batch", "process").containsAll(phases))
                throw new IllegalArgumentException("--phases takes a comma list of enqueue,batch,process");
            boolean standaloneProcess = !phases.contains("enqueue") && !phases.contains("batch");
            if (standaloneProcess && !queueGiven)
                throw new IllegalArgumentException("--phases process alone needs --queue (the queue to drain)");
            if (serverPid != null && !serverPid.equals("auto") && !serverPid.matches("\\d+"))
                throw new IllegalArgumentException("--server-pid takes a number or 'auto'");
        }

        private static int positive(String name, String v) {
            int n = nonNegative(name, v);
            if (n == 0) throw new IllegalArgumentException(name + " must be > 0");
            return n;
        }

        private static int nonNegative(String name, String v) {
            try {
                int n = Integer.parseInt(v);
                if (n < 0) throw new NumberFormatException();
                return n;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " takes a non-negative integer, got '" + v + "'");
            }
        }
    }
}
