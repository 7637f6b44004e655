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
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.function.ObjIntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Bench: a small, dependency-free HTTP load tool for Steadfast, or any server speaking the Open Job
 * Spec HTTP binding (ojs-http-binding.md sections 9.1, 9.2, 10.1, 10.2).
 * Run with Java's single-file source launcher: {@code java scripts/Bench.java --help}.
 *
 * <p>What it measures, one result line per phase:
 * <ol>
 *   <li><b>enqueue</b>: up to {@code --connections} single-job POSTs to {@code /ojs/v1/jobs} in flight
 *       until {@code --jobs} are enqueued into a fresh queue. Jobs/s and request latency p50/p99.</li>
 *   <li><b>batch-enqueue</b>: the same with {@code --batch} jobs per POST to {@code /ojs/v1/jobs/batch}.
 *       A 404/405 on the first batch means "not supported": the phase is skipped with a note.</li>
 *   <li><b>process</b>: {@code --workers} worker loops. Each fetches up to {@code --fetch-count} jobs
 *       ({@code /ojs/v1/workers/fetch}), acks them with at most {@code --ack-concurrency} acks in
 *       flight ({@code /ojs/v1/workers/ack}), waits for those acks, and fetches again. A worker stops
 *       when a fetch comes back empty and every enqueued job is acked (or its ack failed), or at the
 *       timeout. Reports acked jobs / wall time, ack latency p50/p99, acked vs enqueued, and duplicate
 *       deliveries (an id fetched twice; duplicates are counted, not acked).</li>
 *   <li><b>server-rss</b>: with {@code --server-pid}, VmRSS/VmHWM from {@code /proc/PID/status}
 *       before the warmup and after the last phase.</li>
 * </ol>
 * A {@code --warmup} run (enqueue + process on a side queue) comes first and is not counted. Every
 * phase line also shows the average CPU cores used by this tool and (if known) by the server, so a
 * client-bound run is visible. The last line, {@code RESULT ...}, is meant for a README table.
 *
 * <p>How: one {@link HttpClient} forced to HTTP/1.1 with a small fixed executor; it opens one
 * keep-alive connection per concurrent request, so connections track the configured concurrency.
 * Requests are sent with {@code sendAsync} and a {@link Semaphore} caps the number in flight; worker
 * loops block on fetch (like a real worker) and ack asynchronously. This beat C (or W x ack-concurrency)
 * platform threads doing blocking {@code send}s against an in-memory fake server on 2 cores: process
 * about +25% (10-12k vs 8-9k jobs/s), enqueue within noise (+5%); a second or fourth HttpClient did
 * not help. Latency is a {@link System#nanoTime()} delta per request, sorted for nearest-rank
 * percentiles. Responses are not parsed as JSON; {@link Json#ids} scans them for job ids only.
 *
 * <p>Exit codes: 0 success; 1 acked != enqueued, duplicates, or failed requests; 2 usage error or
 * unreachable server.
 */
public final class Bench {

    static final String USAGE = """
        usage: java scripts/Bench.java [options]

        Load-tests an OJS HTTP server (Steadfast): enqueue, batch-enqueue, fetch+ack.

          --url URL               server base URL                  (default http://127.0.0.1:8080)
          --jobs N                jobs per enqueue phase           (default 20000)
          --connections C         enqueue requests in flight       (default 32)
          --workers W             concurrent worker loops          (default 8)
          --fetch-count N         jobs per fetch                   (default 50)
          --ack-concurrency N     acks in flight per worker        (default 16)
          --batch N               jobs per batch-enqueue request   (default 100)
          --queue NAME            queue to use                     (default bench-<epochmillis>)
          --warmup N              jobs enqueued+processed first, not counted (default 2000; 0 = off)
          --timeout S             max seconds per phase            (default 120)
          --phases LIST           comma list of enqueue,batch,process (default all three)
          --server-pid PID|auto   report server RSS and CPU; auto = process listening on the URL's port
          --help                  show this text

        'process' acks what this run's enqueue/batch phases enqueued; run alone it needs --queue
        and expects --jobs jobs in that queue.
        Exit: 0 ok, 1 acked != enqueued / duplicates / failed requests, 2 usage or unreachable server.
        """;

    static final String CONTENT_TYPE = "application/openjobspec+json";
    static final String FJP_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    public static void main(String[] args) {
        ensureAsyncPool();
        Options opt;
        try {
            opt = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage() + " (see --help)");
            System.exit(2);
            return;
        }
        if (opt.help) {
            System.out.print(USAGE);
            return;
        }
        System.exit(new Bench(opt).run());
    }

    /**
     * HttpClient.sendAsync completes every response via CompletableFuture's default executor. With
     * fewer than 3 CPUs the common pool has parallelism 1 and that executor starts one new thread
     * per task, which more than halved throughput on 2 cores. Must run before anything touches
     * CompletableFuture.
     */
    private static void ensureAsyncPool() {
        if (System.getProperty(FJP_PARALLELISM) == null) {
            int n = Math.max(2, Runtime.getRuntime().availableProcessors());
            System.setProperty(FJP_PARALLELISM, String.valueOf(n));
        }
        if (ForkJoinPool.getCommonPoolParallelism() < 2) {
            System.err.println("note: common pool parallelism is 1; sendAsync will be slow (set -D"
                    + FJP_PARALLELISM + "=2)");
        }
    }

    private final Options opt;
    private final Http http;
    private long serverPid = -1;
    private boolean failed;

    Bench(Options opt) {
        this.opt = opt;
        this.http = new Http(opt.url, Duration.ofSeconds(Math.min(opt.timeout, 30)));
    }

    int run() {
        try {
            return runPhases();
        } catch (Fatal e) {
            System.err.println("error: " + e.getMessage());
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
        serverPid = resolveServerPid();
        Rss rssBefore = Rss.read(serverPid);
        System.out.printf(Locale.ROOT, "bench: url=%s queue=%s jobs=%d connections=%d workers=%d"
                + " fetch-count=%d ack-concurrency=%d batch=%d%n", opt.url, opt.queue, opt.jobs,
                opt.connections, opt.workers, opt.fetchCount, opt.ackConcurrency, opt.batch);
        warmup();

        Result enqueue = null, batch = null;
        ProcessResult process = null;
        int enqueued = 0;
        if (opt.phases.contains("enqueue")) {
            enqueue = report(enqueuePhase("enqueue", opt.queue, opt.jobs));
            enqueued += enqueue.jobs;
        }
        if (opt.phases.contains("batch")) {
            batch = report(batchPhase(opt.queue, opt.jobs));
            enqueued += batch.jobs;
        }
        if (opt.phases.contains("process")) {
            process = report(processPhase("process", opt.queue, opt.processOnly() ? opt.jobs : enqueued));
        }
        Rss rssAfter = Rss.read(serverPid);
        if (rssBefore != null && rssAfter != null) System.out.println(rssAfter.line(rssBefore));
        System.out.println(summary(enqueue, batch, process, rssAfter));
        return failed ? 1 : 0;
    }

    // ---------------------------------------------------------------- phases

    /** Enqueues and processes --warmup jobs on a side queue so the JIT and connections are warm. */
    private void warmup() throws InterruptedException {
        if (opt.warmup == 0) return;
        long t0 = System.nanoTime();
        String queue = opt.queue + "-warmup";
        Result e = enqueuePhase("warmup", queue, opt.warmup);
        ProcessResult p = processPhase("warmup", queue, e.jobs);
        System.out.printf(Locale.ROOT, "%-14s %d jobs enqueued, %d acked in %.2fs (not counted)%n",
                "warmup", e.jobs, p.jobs, secs(System.nanoTime() - t0));
        Stream.concat(e.warnings().stream(), p.warnings().stream()).forEach(w -> System.out.println("note: " + w));
    }

    /** Phase 1: single-job POSTs, {@code --connections} in flight, until {@code jobs} are sent. */
    private Result enqueuePhase(String name, String queue, int jobs) throws InterruptedException {
        Result r = new Result(name, jobs, serverPid);
        AtomicInteger next = new AtomicInteger();
        sendAll(r, () -> {
            int i = next.getAndIncrement();
            return i < jobs ? i : -1;
        }, i -> new Req("/ojs/v1/jobs", jobJson(queue, i)), (resp, i) -> {
            r.latency.record(resp.nanos);
            if (resp.status == 201) r.addJobs(1); else r.error(resp);
        });
        r.finish(next.get() < jobs);
        return r;
    }

    /** Phase 2: batch POSTs of {@code --batch} jobs; skipped if the first batch gets 404/405. */
    private Result batchPhase(String queue, int jobs) throws InterruptedException {
        Result r = new Result("batch-enqueue", jobs, serverPid);
        int firstSize = Math.min(opt.batch, jobs);
        Response first = http.post("/ojs/v1/jobs/batch", batchJson(queue, jobs, firstSize));
        if (first.status == 404 || first.status == 405) {
            r.skipped = "POST /ojs/v1/jobs/batch returned " + first.status + ", batch enqueue not supported";
            return r;
        }
        recordBatch(r, first, firstSize);
        AtomicInteger next = new AtomicInteger(firstSize);
        sendAll(r, () -> {
            int start = next.getAndAdd(opt.batch);
            return start < jobs ? start : -1;
        }, start -> new Req("/ojs/v1/jobs/batch", batchJson(queue, jobs + start, batchSize(start, jobs))),
           (resp, start) -> recordBatch(r, resp, batchSize(start, jobs)));
        r.finish(next.get() < jobs);
        return r;
    }

    private int batchSize(int start, int jobs) {
        return Math.min(opt.batch, jobs - start);
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
        ProcessResult r = new ProcessResult(name, expected, serverPid);
        long deadline = r.deadline(opt.timeout);
        runThreads(opt.workers, "worker", w -> new Worker(w, queue, r, deadline).run());
        r.finish(System.nanoTime() > deadline);
        return r;
    }

    /** One worker loop of the process phase: blocking fetch, then concurrent acks. */
    private final class Worker {
        private final String workerId;
        private final String fetchBody;
        private final ProcessResult r;
        private final long deadline;
        private final Semaphore acksInFlight = new Semaphore(opt.ackConcurrency);

        Worker(int index, String queue, ProcessResult r, long deadline) {
            this.workerId = "bench-" + ProcessHandle.current().pid() + "-w" + index;
            this.fetchBody = "{\"queues\":[\"" + queue + "\"],\"count\":" + opt.fetchCount
                    + ",\"worker_id\":\"" + workerId + "\"}";
            this.r = r;
            this.deadline = deadline;
        }

        void run() {
            try {
                loop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void loop() throws InterruptedException {
            int errorsInARow = 0, emptyInARow = 0;
            while (System.nanoTime() < deadline && errorsInARow < 20) {
                Response resp = http.post("/ojs/v1/workers/fetch", fetchBody);
                if (resp.status != 200) {
                    r.error(resp);
                    errorsInARow++;
                    Thread.sleep(10);
                    continue;
                }
                errorsInARow = 0;
                List<String> ids = Json.ids(resp.body, 3);
                if (!ids.isEmpty()) {
                    emptyInARow = 0;
                    ackAll(ids);
                } else if (r.settled()) {
                    return;
                } else {
                    // other workers still have acks in flight (or jobs went missing): back off 1..64 ms
                    r.emptyFetches.incrementAndGet();
                    Thread.sleep(1L << Math.min(6, emptyInARow++));
                }
            }
        }

        /** Acks each first-seen id, at most --ack-concurrency in flight, and waits for all acks. */
        private void ackAll(List<String> ids) throws InterruptedException {
            for (String id : ids) {
                if (!r.seen.add(id)) {
                    r.duplicates.incrementAndGet();
                    continue;
                }
                acksInFlight.acquire();
                String body = "{\"job_id\":\"" + id + "\",\"worker_id\":\"" + workerId + "\"}";
                http.postAsync("/ojs/v1/workers/ack", body).whenComplete((resp, ex) -> {
                    r.recordAck(resp, ex);
                    acksInFlight.release();
                });
            }
            acksInFlight.acquire(opt.ackConcurrency);
            acksInFlight.release(opt.ackConcurrency);
        }
    }

    // ---------------------------------------------------------------- request driver

    record Req(String path, String body) {}

    /**
     * Sends one request per task (task numbers come from {@code next} until it returns -1) with at most
     * {@code --connections} in flight, until done or the phase timeout; waits for all responses.
     */
    private void sendAll(Result r, IntSupplier next, IntFunction<Req> request, ObjIntConsumer<Response> onResponse)
            throws InterruptedException {
        Semaphore inFlight = new Semaphore(opt.connections);
        long deadline = r.deadline(opt.timeout);
        while (System.nanoTime() < deadline
                && inFlight.tryAcquire(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
            int t = next.getAsInt();
            if (t < 0) {
                inFlight.release();
                break;
            }
            Req req = request.apply(t);
            http.postAsync(req.path, req.body).whenComplete((resp, ex) -> {
                if (ex != null) r.error(ex); else onResponse.accept(resp, t);
                inFlight.release();
            });
        }
        inFlight.acquire(opt.connections);
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

    static String jobJson(String queue, int arg) {
        return "{\"type\":\"bench.noop\",\"args\":[" + arg + "],\"options\":{\"queue\":\"" + queue + "\"}}";
    }

    static String batchJson(String queue, int firstArg, int size) {
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

    private static String summary(Result enqueue, Result batch, ProcessResult process, Rss rss) {
        String ackP99 = process == null || process.latency.count() == 0 ? "n/a"
                : String.format(Locale.ROOT, "%.1fms", process.latency.percentileMs(0.99));
        String rssText = rss == null ? "n/a" : String.format(Locale.ROOT, "%.0fMiB rss_peak=%.0fMiB",
                rss.rssMiB(), rss.hwmMiB());
        return "RESULT enqueue=" + rate(enqueue) + " batch_enqueue=" + rate(batch) + " process=" + rate(process)
                + " ack_p99=" + ackP99 + " rss=" + rssText;
    }

    private static String rate(Result r) {
        return r == null || r.skipped != null ? "n/a" : String.format(Locale.ROOT, "%.0f/s", r.rate());
    }

    static double secs(long nanos) {
        return nanos / 1e9;
    }

    // ---------------------------------------------------------------- server pid, RSS, CPU

    private long resolveServerPid() {
        if (opt.serverPid == null) return -1;
        if (!opt.serverPid.equals("auto")) {
            long pid = Long.parseLong(opt.serverPid);
            if (!Files.isReadable(Path.of("/proc/" + pid + "/status"))) {
                throw new Fatal("no readable process with pid " + pid);
            }
            return pid;
        }
        URI uri = URI.create(opt.url);
        int port = uri.getPort() >= 0 ? uri.getPort() : uri.getScheme().equals("https") ? 443 : 80;
        long pid = ListenerLookup.pidListeningOn(port);
        if (pid < 0) {
            System.out.println("note: --server-pid auto found no readable process listening on port " + port
                    + "; RSS not reported (pass the PID)");
        } else {
            System.out.println("note: server pid " + pid + " (" + ListenerLookup.comm(pid) + ") listens on port "
                    + port);
        }
        return pid;
    }

    /** VmRSS and VmHWM (kB) from /proc/PID/status. */
    record Rss(long pid, long rssKb, long hwmKb) {
        /** Null if {@code pid} is unknown (-1) or its status is unreadable. */
        static Rss read(long pid) {
            if (pid < 0) return null;
            try {
                List<String> lines = Files.readAllLines(Path.of("/proc/" + pid + "/status"));
                return new Rss(pid, kb(lines, "VmRSS:"), kb(lines, "VmHWM:"));
            } catch (IOException e) {
                System.out.println("note: cannot read /proc/" + pid + "/status: " + e);
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

        String line(Rss before) {
            return String.format(Locale.ROOT, "%-14s pid=%d before: VmRSS=%.0fMiB VmHWM=%.0fMiB"
                    + "  after: VmRSS=%.0fMiB VmHWM=%.0fMiB", "server-rss", pid, before.rssMiB(),
                    before.hwmMiB(), rssMiB(), hwmMiB());
        }
    }

    /** CPU time used so far by this process and, if {@code serverPid} > 0, by the server. */
    record Cpu(long clientNanos, long serverNanos) {
        static Cpu now(long serverPid) {
            long server = serverPid > 0 ? ProcessHandle.of(serverPid).map(Cpu::nanos).orElse(-1L) : -1L;
            return new Cpu(nanos(ProcessHandle.current()), server);
        }

        private static double cores(long cpuNanos, long wallNanos) {
            return (double) cpuNanos / wallNanos;
        }

        private static long nanos(ProcessHandle h) {
            return h.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
        }

        /** "  cpu client=1.52 server=0.41 cores": average cores busy since {@code start}. */
        String since(Cpu start, long wallNanos) {
            String s = String.format(Locale.ROOT, "  cpu client=%.2f",
                    cores(clientNanos - start.clientNanos, wallNanos));
            if (serverNanos >= 0 && start.serverNanos >= 0) {
                s += String.format(Locale.ROOT, " server=%.2f", cores(serverNanos - start.serverNanos, wallNanos));
            }
            return s + " cores";
        }
    }

    /** Finds the process owning a LISTEN socket: inode via /proc/net/tcp{,6}, then /proc/PID/fd links. */
    static final class ListenerLookup {
        static long pidListeningOn(int port) {
            Set<String> inodes = ConcurrentHashMap.newKeySet();
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                inodes.addAll(listenInodes(table, port));
            }
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

        /** Inodes of sockets in state 0A (LISTEN) on {@code port}; fields: sl local rem st ... inode. */
        private static List<String> listenInodes(String table, int port) {
            List<String> out = new ArrayList<>();
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length < 10 || !f[3].equals("0A") || f[1].indexOf(':') < 0) continue;
                    if (Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16) == port) out.add(f[9]);
                }
            } catch (IOException | NumberFormatException ignored) {
                // table missing (no IPv6) or unreadable: nothing found here
            }
            return out;
        }

        private static boolean ownsSocket(long pid, Set<String> inodes) {
            try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
                return fds.anyMatch(fd -> inodes.contains(socketInode(fd)));
            } catch (IOException | SecurityException e) {
                return false; // other users' processes are not readable
            }
        }

        private static String socketInode(Path fd) {
            try {
                String link = Files.readSymbolicLink(fd).toString();
                return link.startsWith("socket:[") ? link.substring(8, link.length() - 1) : "";
            } catch (IOException e) {
                return "";
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

    /** Counters, latencies and timing of one phase. Counters are thread-safe. */
    static class Result {
        final String name;
        final int target;
        final Latencies latency;
        final AtomicInteger jobsDone = new AtomicInteger();
        final AtomicInteger errors = new AtomicInteger();
        final AtomicReference<String> firstError = new AtomicReference<>();
        private final long serverPid;
        private final long t0;
        private final Cpu cpu0;
        int jobs;
        long nanos;
        boolean timedOut;
        String skipped;
        String cpuText = "";

        /** Starts the phase clock. */
        Result(String name, int target, long serverPid) {
            this.name = name;
            this.target = target;
            this.latency = new Latencies(target + 1024);
            this.serverPid = serverPid;
            this.cpu0 = Cpu.now(serverPid);
            this.t0 = System.nanoTime();
        }

        long deadline(int timeoutSeconds) {
            return t0 + timeoutSeconds * 1_000_000_000L;
        }

        void addJobs(int n) {
            jobsDone.addAndGet(n);
        }

        void error(Response resp) {
            errors.incrementAndGet();
            String body = resp.body.length() > 200 ? resp.body.substring(0, 200) + "..." : resp.body;
            firstError.compareAndSet(null, (resp.status < 0 ? "" : "HTTP " + resp.status + " ") + body);
        }

        void error(Throwable t) {
            errors.incrementAndGet();
            Throwable cause = t.getCause() != null ? t.getCause() : t;
            firstError.compareAndSet(null, cause.toString());
        }

        /** Stops the phase clock. */
        void finish(boolean timedOut) {
            this.nanos = System.nanoTime() - t0;
            this.cpuText = Cpu.now(serverPid).since(cpu0, nanos);
            this.timedOut = timedOut;
            this.jobs = jobsDone.get();
        }

        double rate() {
            return nanos == 0 ? 0 : jobs / secs(nanos);
        }

        String line() {
            if (skipped != null) return String.format("%-14s skipped: %s", name, skipped);
            return String.format(Locale.ROOT, "%-14s %7d jobs in %6.2fs %8.0f jobs/s  latency p50=%s p99=%s"
                    + "  responses=%d errors=%d%s", name, jobs, secs(nanos), rate(), latency.ms(0.50),
                    latency.ms(0.99), latency.count(), errors.get(), cpuText);
        }

        List<String> warnings() {
            List<String> w = new ArrayList<>();
            if (timedOut) w.add(name + " hit the timeout; " + jobs + " of " + target + " jobs done");
            if (errors.get() > 0) {
                w.add(name + ": " + errors.get() + " failed requests, first: " + firstError.get());
            }
            return w;
        }
    }

    /** Process-phase result: adds duplicates, failed acks and the acked == enqueued check. */
    static final class ProcessResult extends Result {
        final Set<String> seen;
        final AtomicInteger duplicates = new AtomicInteger();
        final AtomicInteger ackFailed = new AtomicInteger();
        final AtomicInteger emptyFetches = new AtomicInteger();

        ProcessResult(String name, int expected, long serverPid) {
            super(name, expected, serverPid);
            this.seen = ConcurrentHashMap.newKeySet(Math.max(16, expected * 2));
        }

        /** True when every expected job is acked or failed to ack: nothing left to wait for. */
        boolean settled() {
            return jobsDone.get() + ackFailed.get() >= target;
        }

        void recordAck(Response resp, Throwable ex) {
            if (ex == null && resp.status == 200) {
                latency.record(resp.nanos);
                addJobs(1);
                return;
            }
            ackFailed.incrementAndGet();
            if (ex != null) error(ex); else error(resp);
        }

        @Override
        void finish(boolean timedOut) {
            super.finish(timedOut && !settled());
        }

        @Override
        String line() {
            return String.format(Locale.ROOT, "%-14s %7d jobs in %6.2fs %8.0f jobs/s  ack p50=%s p99=%s"
                    + "  acked=%d/%d duplicates=%d empty-fetches=%d errors=%d%s", name, jobs, secs(nanos), rate(),
                    latency.ms(0.50), latency.ms(0.99), jobs, target, duplicates.get(), emptyFetches.get(),
                    errors.get(), cpuText);
        }

        @Override
        List<String> warnings() {
            List<String> w = super.warnings();
            if (jobs != target) w.add(name + ": acked " + jobs + " jobs but " + target + " were enqueued");
            if (duplicates.get() > 0) w.add(name + ": " + duplicates.get() + " duplicate job ids were fetched");
            return w;
        }
    }

    /** Fixed-capacity, thread-safe recorder of latencies in nanos. */
    static final class Latencies {
        private final long[] values;
        private final AtomicInteger n = new AtomicInteger();
        private long[] sorted;

        Latencies(int capacity) {
            values = new long[capacity];
        }

        void record(long nanos) {
            int i = n.getAndIncrement();
            if (i < values.length) values[i] = nanos;
        }

        int count() {
            return Math.min(n.get(), values.length);
        }

        /** Percentile formatted as "1.23ms", or "n/a" when nothing was recorded. */
        String ms(double p) {
            return count() == 0 ? "n/a" : String.format(Locale.ROOT, "%.2fms", percentileMs(p));
        }

        /** Nearest-rank percentile in ms (NaN if empty); call only after the phase has finished. */
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

    /** Status (-1 for an I/O error, whose message is then the body), body, and latency in nanos. */
    record Response(int status, String body, long nanos) {}

    /** Unreachable server or unusable --server-pid: exit code 2. */
    static final class Fatal extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Fatal(String msg) {
            super(msg);
        }
    }

    /** Keep-alive HTTP/1.1 POSTs of JSON bodies to one base URL. */
    static final class Http {
        private final String base;
        private final HttpClient client;
        private final ExecutorService pool;
        private final Duration requestTimeout;

        Http(String base, Duration requestTimeout) {
            this.base = base;
            this.requestTimeout = requestTimeout;
            int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
            this.pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "http-pool");
                t.setDaemon(true);
                return t;
            });
            this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).executor(pool).build();
        }

        /** Blocking POST; I/O errors become status -1. */
        Response post(String path, String json) throws InterruptedException {
            long t0 = System.nanoTime();
            try {
                HttpResponse<String> resp = client.send(request(path, json), HttpResponse.BodyHandlers.ofString());
                return new Response(resp.statusCode(), resp.body(), System.nanoTime() - t0);
            } catch (IOException e) {
                return new Response(-1, e.toString(), System.nanoTime() - t0);
            }
        }

        /** Async POST; completes with the response and its latency, or exceptionally on errors. */
        CompletableFuture<Response> postAsync(String path, String json) {
            long t0 = System.nanoTime();
            try {
                return client.sendAsync(request(path, json), HttpResponse.BodyHandlers.ofString())
                        .thenApply(resp -> new Response(resp.statusCode(), resp.body(), System.nanoTime() - t0));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e); // never throw: callers hold a semaphore permit
            }
        }

        private HttpRequest request(String path, String json) {
            return HttpRequest.newBuilder(URI.create(base + path)).timeout(requestTimeout)
                    .header("Content-Type", CONTENT_TYPE).header("Accept", CONTENT_TYPE)
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build();
        }

        /** GET /ojs/v1/health: any HTTP answer counts as reachable; connection failures throw. */
        void checkReachable() throws InterruptedException {
            HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/ojs/v1/health"))
                    .timeout(Duration.ofSeconds(5)).header("Accept", CONTENT_TYPE).GET().build();
            try {
                client.send(req, HttpResponse.BodyHandlers.discarding());
            } catch (ConnectException e) {
                throw new Fatal("cannot reach server at " + base + ": connection refused");
            } catch (IOException e) {
                throw new Fatal("cannot reach server at " + base + ": " + e);
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
         * String values of "id" keys in objects at nesting {@code depth}, counting objects and arrays:
         * 2 for {"job":{"id":..}}, 3 for {"jobs":[{"id":..}, ...]}. Deeper "id"s (in args, meta) are ignored.
         */
        static List<String> ids(String json, int depth) {
            List<String> ids = new ArrayList<>();
            int level = 0;
            for (int i = 0; i < json.length(); i++) {
                char c = json.charAt(i);
                if (c == '{' || c == '[') {
                    level++;
                } else if (c == '}' || c == ']') {
                    level--;
                } else if (c == '"') {
                    int end = stringEnd(json, i);
                    if (level == depth && end == i + 3 && json.startsWith("id", i + 1)) {
                        end = readValue(json, end + 1, ids);
                    }
                    i = end;
                }
            }
            return ids;
        }

        /** If {@code json} at {@code from} is {@code : "value"}, adds value; returns the index scanned to. */
        private static int readValue(String json, int from, List<String> out) {
            int colon = skipSpace(json, from);
            if (colon >= json.length() || json.charAt(colon) != ':') return from - 1;
            int v = skipSpace(json, colon + 1);
            if (v >= json.length() || json.charAt(v) != '"') return colon;
            int end = stringEnd(json, v);
            out.add(json.substring(v + 1, end));
            return end;
        }

        /** Index of the closing quote of the string opened at {@code open}. */
        private static int stringEnd(String s, int open) {
            for (int i = open + 1; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '\\') i++;
                else if (c == '"') return i;
            }
            return s.length();
        }

        private static int skipSpace(String s, int i) {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
            return i;
        }

        /** Value of the first {@code "key": N} anywhere in {@code json}, or {@code dflt}. */
        static int intField(String json, String key, int dflt) {
            Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\"\\s*:\\s*(\\d+)").matcher(json);
            return m.find() ? Integer.parseInt(m.group(1)) : dflt;
        }
    }

    // ---------------------------------------------------------------- options

    static final class Options {
        static final Set<String> PHASES = Set.of("enqueue", "batch", "process");

        String url = "http://127.0.0.1:8080";
        int jobs = 20_000, connections = 32, workers = 8, fetchCount = 50, ackConcurrency = 16, batch = 100;
        int warmup = 2000, timeout = 120;
        String queue = "bench-" + System.currentTimeMillis();
        Set<String> phases = PHASES;
        String serverPid;
        boolean help, queueGiven;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String name = args[i], value;
                if (name.equals("--help") || name.equals("-h")) {
                    o.help = true;
                    continue;
                }
                int eq = name.indexOf('=');
                if (name.startsWith("--") && eq > 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    throw new IllegalArgumentException("missing value for " + name);
                }
                o.set(name, value);
            }
            o.validate();
            return o;
        }

        boolean processOnly() {
            return !phases.contains("enqueue") && !phases.contains("batch");
        }

        private void set(String name, String v) {
            switch (name) {
                case "--url" -> url = v.replaceAll("/+$", "");
                case "--jobs" -> jobs = positive(name, v);
                case "--connections" -> connections = positive(name, v);
                case "--workers" -> workers = positive(name, v);
                case "--fetch-count" -> fetchCount = positive(name, v);
                case "--ack-concurrency" -> ackConcurrency = positive(name, v);
                case "--batch" -> batch = positive(name, v);
                case "--queue" -> {
                    queue = v;
                    queueGiven = true;
                }
                case "--warmup" -> warmup = nonNegative(name, v);
                case "--timeout" -> timeout = positive(name, v);
                case "--phases" -> phases = Set.copyOf(Arrays.asList(v.split(",")));
                case "--server-pid" -> serverPid = v;
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }

        private void validate() {
            if (!url.matches("https?://[^/?#]+(/[^?#]*)?")) throw new IllegalArgumentException("bad --url " + url);
            // OJS queue names: [a-z0-9][a-z0-9.-]*, max 128; leave room for the "-warmup" suffix
            if (!queue.matches("[a-z0-9][a-z0-9.\\-]{0,119}")) {
                throw new IllegalArgumentException("--queue must match [a-z0-9][a-z0-9.-]* (max 120 chars)");
            }
            if (!PHASES.containsAll(phases)) {
                throw new IllegalArgumentException("--phases takes a comma list of enqueue,batch,process");
            }
            if (processOnly() && !queueGiven) {
                throw new IllegalArgumentException("--phases process alone needs --queue (the queue to drain)");
            }
            if (serverPid != null && !serverPid.matches("auto|\\d+")) {
                throw new IllegalArgumentException("--server-pid takes a number or 'auto'");
            }
        }

        private static int positive(String name, String v) {
            int n = nonNegative(name, v);
            if (n == 0) throw new IllegalArgumentException(name + " must be > 0");
            return n;
        }

        private static int nonNegative(String name, String v) {
            try {
                int n = Integer.parseInt(v);
                if (n >= 0) return n;
            } catch (NumberFormatException ignored) {
                // fall through
            }
            throw new IllegalArgumentException(name + " takes a non-negative integer, got '" + v + "'");
        }
    }
}
