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
 * <p>{@code --workload} runs instead the workloads of the peer benchmark (../shared/peers-bench, W1-W4, driven
 * side by side by {@code scripts/bench-peers.sh}), timed the way the peers' programs time them: w1-single,
 * w1-bulk, w2 (+ w2-batch: the batch-ACK extension), w3 (long-poll latency) and w4 (fail once, + w4-batch).
 * Each keeps a ledger of ids (enqueued, fetches per id, completed) and reports jobs lost and delivered twice;
 * see the usage text for the exact definitions and {@link #runWorkloads}. {@code --duration} keeps w2 fed for a
 * time and reports jobs/s per window ({@link #durationWorkload}); {@code --pg-stats} reads database counters (WAL,
 * commits) around the timed part ({@link #openStats}).
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
          --client raw|jdk        HTTP client: raw keep-alive sockets (default) or the JDK HttpClient
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
          --token T               send Authorization: Bearer T with every request (a server with API
                                  authentication on; also read from STEADFAST_TOKEN)
          --help                  show this text

        'process' acks what this run's enqueue/batch phases enqueued; run alone it needs --queue
        and expects --jobs jobs in that queue.

        Peer-comparable workloads (same measurement as ../shared/peers-bench W1-W4; replace --phases):
          --workload LIST         comma list of w1-single,w1-bulk,w2,w2-batch,w3,w4,w4-batch
            w1-single  --jobs (20000) single POSTs, --connections (16) in flight; jobs/s = jobs / elapsed
            w1-bulk    POST /jobs/batch, --batch (1000) per call, --batch-in-flight (1) calls in flight
            w2         --jobs (20000) bulk-enqueued first (not timed); then --workers (8) loops: fetch
                       --fetch-count (10), one ACK request per job, --ack-concurrency (1) acks in flight per
                       loop, all answered before the next fetch; elapsed = loops start until the last ACK
            w2-batch   as w2, one POST /workers/ack/batch per fetch (skipped if the server answers 404)
            w3         --workers (8) loops idle (--idle-ms 3000) in long-poll fetches (--wait-ms 30000,
                       --fetch-count 1), then --jobs (200) single enqueues --gap-ms (20) apart; latency =
                       fetch answer received - just before the enqueue request; p50/p90/p99/max. If the
                       server does not hold an empty fetch, the loops poll every --poll-ms (10)
            w4         --jobs (5000) jobs with retry {max_attempts 3, initial_interval --retry-interval
                       (PT0S; PT0.001S if rejected), backoff none, jitter false}; attempt 1 is FAILed
                       (POST /workers/nack), attempt 2 ACKed; elapsed until all are completed
            w4-batch   as w4, FAILs and ACKs of a fetch in one POST /workers/ack/batch
          --wait-ms N             w2/w4: send "wait_ms": N with every fetch (default 0: not sent);
                                  w3: the long-poll wait (default 30000; 0 = plain polling)
          --drain on|off          w1: afterwards (not timed) fetch+ack every accepted job to check that
                                  none is lost or delivered twice (default on)
          Per-workload defaults apply unless the option is given. Each workload uses its own fresh queue
          (<--queue>-<workload>). The default --ack-concurrency 1 with 8 loops keeps 8 ACKs in flight
          (8 jobs finishing at a time), like graphile-worker's concurrency 8 in the peer W2/W4;
          --ack-concurrency 10 puts a whole fetch's acks in flight together (an SDK worker that runs
          its fetched jobs concurrently). Other knobs: --poll-ms, --gap-ms, --idle-ms (w3),
          --batch-in-flight (w1-bulk), --retry-interval ISO (w4), --unique on (every job carries a
          unique policy over type and args, all keys distinct), --before-timing CMD (w2/w4: shell
          command run after the pre-enqueue, before the clock starts; bench-peers.sh passes a psql
          'vacuum analyze' like the peers' programs do there).
          --duration S            w2/w2-batch: keep the queue fed for S seconds (--backlog (5000) jobs
                                  waiting, topped up 1,000 per batch POST; at most --jobs (1000000) in
                                  all) and print the jobs/s of every --window (15) s; RESULT adds
                                  windows_jobs_per_s and last_over_first. Waiting jobs are drained after
                                  the run (not timed)
          --pg-stats CMD          shell command printing key=integer pairs (bench-peers.sh: psql reading
                                  pg_current_wal_lsn(), pg_stat_wal, pg_stat_database); run right before
                                  the clock starts and right after it stops: RESULT gets pg_KEY (the
                                  difference) and window_start_ms/window_end_ms (epoch ms)
          --pg-stats-settle-ms N  wait N ms before the first read, and read a third time N ms after the
                                  run (pg_KEY_settled): backends report statistics up to ~10 s late
          Each prints "RESULT {json}": workload, jobs, elapsed_s, jobs_per_s, latencies, lost,
          duplicates (deliveries beyond 1 per job, 2 for w4), failed_requests, client_cores,
          server_cores and server_vmhwm_mib (with --server-pid). Exit 1 if lost, duplicates or
          failed requests are not 0.
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
        this.http = new Http(opt.url, Duration.ofSeconds(Math.min(opt.timeout, 30)), opt.client.equals("raw"),
                opt.token);
    }

    int run() {
        try {
            return opt.workloads.isEmpty() ? runPhases() : runWorkloads();
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

    // ---------------------------------------------------------------- peer-comparable workloads (--workload)

    /** Workload names, matching the peers' W1-W4 in ../shared/peers-bench (see the usage text). */
    static final List<String> WORKLOADS = List.of("w1-single", "w1-bulk", "w2", "w2-batch", "w3", "w4", "w4-batch");

    static final String BATCH_ACK = "/ojs/v1/workers/ack/batch";
    static final String FETCH = "/ojs/v1/workers/fetch";

    /** The option's value if given on the command line, else the workload's default. */
    private int pick(String flag, int value, int workloadDefault) {
        return opt.given.contains(flag) ? value : workloadDefault;
    }

    private int runWorkloads() throws InterruptedException {
        http.checkReachable();
        serverPid = resolveServerPid();
        System.out.printf(Locale.ROOT, "bench: url=%s workloads=%s queue prefix=%s%n", opt.url,
                String.join(",", opt.workloads), opt.queue);
        warmup();
        int rc = 0;
        for (String w : opt.workloads) {
            String queue = opt.queue + "-" + w;
            Outcome o = switch (w) {
                case "w1-single" -> w1Single(queue);
                case "w1-bulk" -> w1Bulk(queue);
                case "w2", "w2-batch" -> opt.duration > 0 ? durationWorkload(w, queue) : processWorkload(w, queue);
                case "w4", "w4-batch" -> processWorkload(w, queue);
                case "w3" -> w3(queue);
                default -> throw new IllegalStateException(w);
            };
            rc = Math.max(rc, o.print(Rss.read(serverPid)));
        }
        return rc;
    }

    /** W1 single: one job per POST /ojs/v1/jobs, --connections (default 16) in flight. */
    private Outcome w1Single(String queue) throws InterruptedException {
        int jobs = pick("--jobs", opt.jobs, 20_000);
        int conc = pick("--connections", opt.connections, 16);
        Ledger ledger = new Ledger(jobs);
        StatsWindow win = openStats();
        Result r = new Result("w1-single", jobs, serverPid);
        AtomicInteger next = new AtomicInteger();
        sendAll(r, conc, () -> {
            int i = next.getAndIncrement();
            return i < jobs ? i : -1;
        }, i -> new Req("/ojs/v1/jobs", jobJson(queue, i)), (resp, i) -> {
            r.latency.record(resp.nanos);
            List<String> ids = resp.status == 201 ? Json.ids(resp.body, 2) : List.of();
            if (ids.size() == 1) {
                ledger.enqueued.add(ids.get(0));
                r.addJobs(1);
            } else {
                ledger.failed(resp);
            }
        });
        r.finish(next.get() < jobs);
        ledger.failed.addAndGet(r.errors.get()); // I/O errors recorded on r
        Outcome o = Outcome.of("w1-single", jobs, r, ledger);
        win.end();
        o.extra.put("in_flight", conc);
        o.requestLatency(r.latency);
        win.settleInto(o);
        return drainCheck(o, queue, ledger);
    }

    /** W1 bulk: POST /ojs/v1/jobs/batch with --batch (1,000) jobs each, --batch-in-flight (1) in flight. */
    private Outcome w1Bulk(String queue) throws InterruptedException {
        int jobs = pick("--jobs", opt.jobs, 20_000);
        int batch = pick("--batch", opt.batch, 1000);
        int inFlight = opt.batchInFlight > 0 ? opt.batchInFlight : 1;
        Ledger ledger = new Ledger(jobs);
        StatsWindow win = openStats();
        Result r = new Result("w1-bulk", jobs, serverPid);
        AtomicInteger next = new AtomicInteger();
        AtomicReference<String> unsupported = new AtomicReference<>();
        sendAll(r, inFlight, () -> {
            int start = next.getAndAdd(batch);
            return start < jobs && unsupported.get() == null ? start : -1;
        }, start -> new Req("/ojs/v1/jobs/batch", batchJson(queue, start, Math.min(batch, jobs - start))),
           (resp, start) -> {
               r.latency.record(resp.nanos);
               if (resp.status == 404 || resp.status == 405) {
                   unsupported.set("POST /ojs/v1/jobs/batch returned " + resp.status);
                   return;
               }
               List<String> ids = resp.status == 201 ? Json.ids(resp.body, 3) : List.of();
               if (ids.size() == Math.min(batch, jobs - start)) {
                   ledger.enqueued.addAll(ids);
                   r.addJobs(ids.size());
               } else {
                   ledger.failed(resp);
               }
           });
        r.finish(next.get() < jobs && unsupported.get() == null);
        win.end();
        if (unsupported.get() != null) return Outcome.skipped("w1-bulk", unsupported.get() + ", batch enqueue not supported");
        ledger.failed.addAndGet(r.errors.get());
        Outcome o = Outcome.of("w1-bulk", jobs, r, ledger);
        o.extra.put("batch", batch);
        o.extra.put("in_flight", inFlight);
        o.requestLatency(r.latency);
        win.settleInto(o);
        return drainCheck(o, queue, ledger);
    }

    /**
     * After a W1 run (not timed): fetch and ack everything the run enqueued, so "lost" (accepted but never
     * delivered) and "duplicates" (delivered twice) mean the same as for the other workloads.
     */
    private Outcome drainCheck(Outcome o, String queue, Ledger enqueue) throws InterruptedException {
        if (!opt.drain) {
            o.lost = enqueue.target - enqueue.enqueued.size();
            o.notes.add("--drain off: lost = jobs not accepted; deliveries not checked");
            return o;
        }
        long t0 = System.nanoTime();
        boolean batchAck = batchAckSupported() == null;
        Ledger drain = new Ledger(enqueue.enqueued.size());
        drain.enqueued.addAll(enqueue.enqueued);
        long deadline = t0 + opt.timeout * 1_000_000_000L;
        List<Thread> loops = startLoops(8, queue, drain, false, batchAck, 100, 16, 0, deadline);
        drain.awaitSettled(deadline);
        joinLoops(loops, 2000);
        o.lost = enqueue.target - enqueue.enqueued.size() + drain.lost();
        o.duplicates = drain.duplicates(1);
        o.failed += drain.failed.get();
        o.notes.add(String.format(Locale.ROOT, "drain check (not timed): %d of %d accepted jobs fetched and acked in"
                + " %.1fs%s", drain.completedCount.get(), drain.target, secs(System.nanoTime() - t0),
                batchAck ? " with batch ACK" : ""));
        return o;
    }

    /** Null if POST /ojs/v1/workers/ack/batch exists, else why not (404/405 on an empty batch). */
    private String batchAckSupported() throws InterruptedException {
        Response resp = http.post(BATCH_ACK, "{\"worker_id\":\"bench-probe\",\"acks\":[]}");
        if (resp.status == 404 || resp.status == 405) return "POST " + BATCH_ACK + " returned " + resp.status;
        if (resp.status < 0) return "POST " + BATCH_ACK + " failed: " + resp.body;
        return null;
    }

    /**
     * W2 / W4 (and their -batch variants): --jobs jobs bulk-enqueued first (not timed); then --workers loops
     * fetch --fetch-count each and ack (W4: fail attempt 1, ack attempt 2) until all are completed. Elapsed =
     * loops started until the last job's ACK answered.
     */
    private Outcome processWorkload(String w, String queue) throws InterruptedException {
        boolean failOnce = w.startsWith("w4");
        boolean batchAck = w.endsWith("-batch");
        int jobs = pick("--jobs", opt.jobs, failOnce ? 5_000 : 20_000);
        int workers = pick("--workers", opt.workers, 8);
        int fetchCount = pick("--fetch-count", opt.fetchCount, 10);
        int ackConc = pick("--ack-concurrency", opt.ackConcurrency, 1);
        int waitMs = Math.max(0, opt.waitMs);
        if (batchAck) {
            String why = batchAckSupported();
            if (why != null) return Outcome.skipped(w, why + ", batch ACK extension not supported");
        }
        Ledger ledger = new Ledger(jobs);
        String retry = failOnce ? retryPolicy(opt.retryInterval) : null;
        long tEnq = System.nanoTime();
        String interval = preEnqueue(queue, jobs, retry, ledger);
        if (interval == null) return Outcome.failed(w, jobs, ledger, "pre-enqueue failed");
        System.out.printf(Locale.ROOT, "%-14s %d jobs pre-enqueued in %.2fs (not timed)%s%n", w, ledger.enqueued.size(),
                secs(System.nanoTime() - tEnq), failOnce ? " retry.initial_interval=" + interval : "");
        beforeTiming(w);

        StatsWindow win = openStats();
        Result r = new Result(w, jobs, serverPid);
        long deadline = r.deadline(opt.timeout);
        List<Thread> loops = startLoops(workers, queue, ledger, failOnce, batchAck, fetchCount, ackConc, waitMs,
                deadline);
        boolean done = ledger.awaitSettled(deadline);
        long end = ledger.doneNanos != 0 ? ledger.doneNanos : System.nanoTime();
        r.jobsDone.set(ledger.completedCount.get());
        r.finish(!done);
        r.nanos = end - r.t0;
        win.end();
        joinLoops(loops, 2000);
        Outcome o = Outcome.of(w, jobs, r, ledger);
        o.lost = ledger.lost();
        o.duplicates = ledger.duplicates(failOnce ? 2 : 1);
        if (failOnce) {
            int once = ledger.completedWithFetches(1);
            o.extra.put("completed_without_retry", once);
            if (once > 0) o.notes.add(once + " jobs completed on their first delivery (expected a retry)");
            o.bad |= once > 0;
            o.extra.put("retry_initial_interval", interval);
        }
        o.extra.put("workers", workers);
        o.extra.put("fetch_count", fetchCount);
        o.extra.put("ack", batchAck ? "batch" : "per-job");
        if (!batchAck) o.extra.put("ack_concurrency", ackConc);
        o.extra.put("wait_ms", waitMs);
        o.extra.put("fetches", ledger.fetchRequests.get());
        o.extra.put("empty_fetches", ledger.emptyFetches.get());
        o.requestLatency(ledger.ackLatency);
        win.settleInto(o);
        return o;
    }

    /**
     * --duration S (w2, w2-batch): the queue kept fed for S seconds. --backlog (5,000) jobs are enqueued first (not
     * timed); then the --workers loops run as in W2 while a feeder thread adds batches of 1,000 whenever fewer than
     * --backlog jobs wait. Completed jobs are counted per --window (15 s) and printed as each window closes.
     * Bounded in time (after S seconds the loops stop fetching and the feeder stops) and in count (at most --jobs,
     * default 1,000,000, are enqueued; when all of them are completed before S seconds, the run ends there).
     * Afterwards, not timed, the jobs still waiting are fetched and acked so that lost and duplicates mean what they
     * mean in W2. The database counters (--pg-stats) include the feeder's enqueues.
     */
    private Outcome durationWorkload(String w, String queue) throws InterruptedException {
        boolean batchAck = w.endsWith("-batch");
        int cap = pick("--jobs", opt.jobs, 1_000_000);
        int workers = pick("--workers", opt.workers, 8);
        int fetchCount = pick("--fetch-count", opt.fetchCount, 10);
        int ackConc = pick("--ack-concurrency", opt.ackConcurrency, 1);
        int waitMs = Math.max(0, opt.waitMs);
        int backlog = Math.min(opt.backlog, cap);
        long durNanos = opt.duration * 1_000_000_000L, winNanos = opt.window * 1_000_000_000L;
        if (batchAck) {
            String why = batchAckSupported();
            if (why != null) return Outcome.skipped(w, why + ", batch ACK extension not supported");
        }
        Ledger ledger = new Ledger(cap, true);
        Feeder feeder = new Feeder(queue, ledger, cap, backlog);
        long tEnq = System.nanoTime();
        if (!feeder.topUp()) return Outcome.failed(w, cap, ledger, "pre-enqueue failed");
        System.out.printf(Locale.ROOT, "%-14s %d jobs pre-enqueued in %.2fs (not timed); %d s fed, windows of %d s,"
                + " at most %d jobs%n", w, feeder.accepted.get(), secs(System.nanoTime() - tEnq), opt.duration,
                opt.window, cap);
        beforeTiming(w);

        StatsWindow win = openStats();
        Result r = new Result(w, cap, serverPid);
        long deadline = r.t0 + durNanos;
        List<Thread> loops = startLoops(workers, queue, ledger, false, batchAck, fetchCount, ackConc, waitMs,
                deadline);
        Thread feed = new Thread(() -> feeder.run(deadline), "feeder");
        feed.setDaemon(true);
        feed.start();
        List<Object> rates = new ArrayList<>();
        long prevCount = 0, prevT = r.t0;
        for (long t = r.t0 + winNanos; ; t += winNanos) {
            long at = Math.min(t, deadline);
            for (long left = at - System.nanoTime(); left > 0 && !ledger.settled(); left = at - System.nanoTime()) {
                Thread.sleep(Math.max(1, Math.min(50, left / 1_000_000L)));
            }
            long now = ledger.settled() && ledger.doneNanos != 0 ? Math.min(ledger.doneNanos, at) : System.nanoTime();
            long count = ledger.completedCount.get();
            double rate = (count - prevCount) / Math.max(1e-9, secs(now - prevT));
            rates.add(Math.round(rate * 10) / 10.0);
            System.out.printf(Locale.ROOT, "%-14s window %2d  %6.1f-%6.1fs  %8d jobs  %8.0f jobs/s%n", w, rates.size(),
                    secs(prevT - r.t0), secs(now - r.t0), count - prevCount, rate);
            prevCount = count;
            prevT = now;
            if (now >= deadline || ledger.settled()) break;
        }
        boolean capReached = ledger.settled();
        r.jobsDone.set((int) prevCount);
        r.finish(false);
        r.nanos = prevT - r.t0;
        win.end();
        feeder.stop = true;
        feed.join(30_000);
        joinLoops(loops, 30_000);

        Outcome o = Outcome.of(w, (int) prevCount, r, ledger);
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
        if (capReached) o.notes.add("all " + cap + " jobs (--jobs) were done before " + opt.duration + " s; the run"
                + " ended there, the last window is shorter");
        if (feeder.failed) o.notes.add("the feeder stopped after failed enqueues");
        o.extra.put("workers", workers);
        o.extra.put("fetch_count", fetchCount);
        o.extra.put("ack", batchAck ? "batch" : "per-job");
        if (!batchAck) o.extra.put("ack_concurrency", ackConc);
        o.extra.put("fetches", ledger.fetchRequests.get());
        o.extra.put("empty_fetches", ledger.emptyFetches.get());
        o.extra.put("includes_enqueue", true);
        o.requestLatency(ledger.ackLatency);
        win.settleInto(o);

        // not timed: fetch and ack what still waits, then the lost / duplicate checks
        long t0 = System.nanoTime();
        List<String> waiting = new ArrayList<>();
        for (String id : ledger.enqueued) if (!ledger.completed.contains(id)) waiting.add(id);
        o.duplicates = ledger.duplicates(1);
        o.failed = ledger.failed.get();
        int drained = 0;
        if (!waiting.isEmpty()) {
            Ledger drain = new Ledger(waiting.size());
            drain.enqueued.addAll(waiting);
            long dl = System.nanoTime() + opt.timeout * 1_000_000_000L;
            List<Thread> dloops = startLoops(8, queue, drain, false, batchAckSupported() == null, 100, 16, 0, dl);
            drain.awaitSettled(dl);
            joinLoops(dloops, 2000);
            drained = drain.completedCount.get();
            o.lost = drain.lost();
            o.duplicates += drain.duplicates(1);
            o.failed += drain.failed.get();
            if (o.firstError == null) o.firstError = drain.firstError.get();
        }
        o.notes.add(String.format(Locale.ROOT, "after the run (not timed): %d of %d waiting jobs fetched and acked in"
                + " %.1fs", drained, waiting.size(), secs(System.nanoTime() - t0)));
        return o;
    }

    /** Keeps --backlog jobs waiting in a queue (duration runs): batches of up to 1,000, at most {@code cap}. */
    private final class Feeder {
        final String queue;
        final Ledger ledger;
        final int cap, backlog;
        final AtomicInteger accepted = new AtomicInteger();
        volatile boolean stop, failed;
        private int nextArg;

        Feeder(String queue, Ledger ledger, int cap, int backlog) {
            this.queue = queue;
            this.ledger = ledger;
            this.cap = cap;
            this.backlog = backlog;
        }

        private boolean wanted() {
            return accepted.get() < cap && accepted.get() - ledger.completedCount.get() < backlog;
        }

        /** Enqueues until --backlog jobs wait; false if an enqueue failed. */
        boolean topUp() throws InterruptedException {
            while (wanted()) {
                if (!postBatch()) return false;
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
                if (errorsInARow >= 20) failed = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private boolean postBatch() throws InterruptedException {
            int size = Math.min(1000, cap - accepted.get());
            Response resp = http.post("/ojs/v1/jobs/batch", batchJson(queue, nextArg, size));
            nextArg += size;
            List<String> ids = resp.status == 201 ? Json.ids(resp.body, 3) : List.of();
            if (ids.size() != size) {
                ledger.failed(resp);
                return false;
            }
            for (String id : ids) if (!ledger.completed.contains(id)) ledger.enqueued.add(id);
            accepted.addAndGet(size);
            return true;
        }
    }

    /**
     * Runs --before-timing (a shell command, e.g. psql -c 'vacuum analyze') between the pre-enqueue and the timed
     * part, as the peers' W2/W4 programs vacuum-analyze their job table there. Bounded to 300 s.
     */
    private void beforeTiming(String w) throws InterruptedException {
        if (opt.beforeTiming == null) return;
        long t0 = System.nanoTime();
        try {
            Process p = new ProcessBuilder("sh", "-c", opt.beforeTiming).inheritIO().start();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                System.out.println("note: --before-timing did not finish in 300 s; killed");
            } else if (p.exitValue() != 0) {
                System.out.println("note: --before-timing exited " + p.exitValue());
            }
        } catch (IOException e) {
            System.out.println("note: --before-timing failed: " + e);
        }
        System.out.printf(Locale.ROOT, "%-14s --before-timing took %.2fs (not timed)%n", w, secs(System.nanoTime() - t0));
    }

    /**
     * The database counters around a timed part (--pg-stats CMD: a shell command printing {@code key=integer} pairs,
     * e.g. psql reading pg_current_wal_lsn(), pg_stat_wal and pg_stat_database). {@link #openStats} waits
     * --pg-stats-settle-ms (so counters of earlier work that PostgreSQL reports late are in before the clock starts),
     * then reads them; {@link StatsWindow#end} reads them again as soon as the timed part is over ({@code pg_KEY}:
     * the difference), and {@link StatsWindow#settleInto} waits the settle time once more and reads a third time
     * ({@code pg_KEY_settled}: backends report their statistics up to about 10 s late, so a read right at the end
     * misses part of the window; the settled one adds the settle time's own background work instead). Also records
     * the window's wall-clock start and end ({@code window_start_ms}, {@code window_end_ms}, epoch ms) so activity
     * sampled elsewhere (autovacuum) can be matched to the run. Without --pg-stats only the wall-clock times.
     */
    private StatsWindow openStats() throws InterruptedException {
        StatsWindow w = new StatsWindow();
        if (opt.pgStats != null) {
            if (opt.pgSettleMs > 0) Thread.sleep(opt.pgSettleMs);
            w.before = readPgStats();
        }
        w.startMs = System.currentTimeMillis();
        return w;
    }

    final class StatsWindow {
        java.util.Map<String, Long> before, atEnd;
        long startMs, endMs;
        boolean settled;

        /** The timed part is over: wall clock and counters now (call once, right when the clock stops). */
        void end() {
            if (endMs != 0) return;
            endMs = System.currentTimeMillis();
            if (before != null) atEnd = readPgStats();
        }

        /** Waits the settle time, reads the counters a third time and puts every figure into {@code o}. */
        void settleInto(Outcome o) throws InterruptedException {
            end();
            o.extra.put("window_start_ms", startMs);
            o.extra.put("window_end_ms", endMs);
            if (before == null) return;
            putDeltas(o, atEnd, "");
            if (opt.pgSettleMs > 0 && !settled) {
                settled = true;
                Thread.sleep(opt.pgSettleMs);
                putDeltas(o, readPgStats(), "_settled");
                o.extra.put("pg_settle_ms", opt.pgSettleMs);
            }
        }

        private void putDeltas(Outcome o, java.util.Map<String, Long> after, String suffix) {
            for (var e : before.entrySet()) {
                Long a = after.get(e.getKey());
                if (a != null) o.extra.put("pg_" + e.getKey() + suffix, a - e.getValue());
            }
        }
    }

    private static final Pattern PG_STAT = Pattern.compile("([a-z_][a-z0-9_]*)=(-?\\d+)");

    /** Runs --pg-stats and parses its {@code key=integer} pairs; empty (with a note) if it fails. */
    private java.util.Map<String, Long> readPgStats() {
        java.util.Map<String, Long> m = new java.util.LinkedHashMap<>();
        try {
            Process p = new ProcessBuilder("sh", "-c", opt.pgStats).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
            Matcher mt = PG_STAT.matcher(out);
            while (mt.find()) m.put(mt.group(1), Long.parseLong(mt.group(2)));
            if (m.isEmpty()) System.out.println("note: --pg-stats printed no key=value pairs: " + out.strip());
        } catch (IOException e) {
            System.out.println("note: --pg-stats failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return m;
    }

    static String retryPolicy(String initialInterval) {
        return "{\"max_attempts\":3,\"initial_interval\":\"" + initialInterval + "\",\"backoff_coefficient\":1.0,"
                + "\"backoff_strategy\":\"none\",\"jitter\":false}";
    }

    /**
     * Bulk-enqueues {@code jobs} jobs (1,000 per POST /jobs/batch, one at a time; single POSTs 16 in flight if
     * there is no batch endpoint). With a retry policy whose interval the server rejects (PT0S), retries once with
     * PT0.001S. Returns the interval used ("" without retry policy), or null on failure.
     */
    private String preEnqueue(String queue, int jobs, String retry, Ledger ledger) throws InterruptedException {
        String interval = retry == null ? "" : opt.retryInterval;
        for (int start = 0; start < jobs; ) {
            int size = Math.min(1000, jobs - start);
            Response resp = http.post("/ojs/v1/jobs/batch", batchJson(queue, start, size, retry));
            if (resp.status == 404 || resp.status == 405) {
                return preEnqueueSingly(queue, start, jobs, retry, ledger) ? interval : null;
            }
            if ((resp.status == 400 || resp.status == 422) && start == 0 && retry != null
                    && !interval.equals("PT0.001S") && resp.body.contains("initial_interval")) {
                System.out.println("note: server rejected retry.initial_interval " + interval + ", using PT0.001S");
                interval = "PT0.001S";
                retry = retryPolicy(interval);
                continue;
            }
            List<String> ids = resp.status == 201 ? Json.ids(resp.body, 3) : List.of();
            if (ids.size() != size) {
                ledger.failed(resp);
                System.out.println("error: pre-enqueue: " + (resp.body.length() > 300 ? resp.body.substring(0, 300)
                        : resp.body));
                return null;
            }
            ledger.enqueued.addAll(ids);
            start += size;
        }
        return interval;
    }

    private boolean preEnqueueSingly(String queue, int from, int jobs, String retry, Ledger ledger)
            throws InterruptedException {
        Result r = new Result("pre-enqueue", jobs - from, serverPid);
        AtomicInteger next = new AtomicInteger(from);
        sendAll(r, 16, () -> {
            int i = next.getAndIncrement();
            return i < jobs ? i : -1;
        }, i -> new Req("/ojs/v1/jobs", jobJson(queue, i, retry)), (resp, i) -> {
            List<String> ids = resp.status == 201 ? Json.ids(resp.body, 2) : List.of();
            if (ids.size() == 1) ledger.enqueued.add(ids.get(0)); else ledger.failed(resp);
        });
        return ledger.enqueued.size() == jobs;
    }

    private List<Thread> startLoops(int n, String queue, Ledger ledger, boolean failOnce, boolean batchAck,
                                    int fetchCount, int ackConc, int waitMs, long deadline) {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Loop loop = new Loop(i, queue, ledger, failOnce, batchAck, fetchCount, ackConc, waitMs, deadline);
            Thread t = new Thread(loop::run, "loop-" + i);
            t.setDaemon(true); // a long-poll fetch may still be held by the server when the workload is done
            t.start();
            threads.add(t);
        }
        return threads;
    }

    /** Waits up to {@code millis} in total for the loops; loops still in a held fetch are left behind. */
    private static void joinLoops(List<Thread> threads, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        for (Thread t : threads) t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000L));
    }

    private static final Set<String> JOB_KEYS = Set.of("id", "attempt");
    private static final Set<String> RESULT_KEYS = Set.of("job_id", "ok", "state");

    /**
     * A worker loop for W2/W4: blocking fetch (with wait_ms when > 0), then per-job ACK/FAIL requests (at most
     * ackConc in flight, all answered before the next fetch) or one batch-ACK request for the whole fetch.
     */
    private final class Loop {
        private final String workerId, fetchBody;
        private final Ledger ledger;
        private final boolean failOnce, batchAck;
        private final int ackConc, waitMs;
        private final long deadline;
        private final Duration fetchTimeout;
        private final Semaphore inFlight;

        Loop(int index, String queue, Ledger ledger, boolean failOnce, boolean batchAck, int fetchCount,
             int ackConc, int waitMs, long deadline) {
            this.workerId = "bench-" + ProcessHandle.current().pid() + "-" + queue + "-w" + index;
            this.fetchBody = "{\"queues\":[\"" + queue + "\"],\"count\":" + fetchCount + ",\"worker_id\":\""
                    + workerId + "\"" + (waitMs > 0 ? ",\"wait_ms\":" + waitMs : "") + "}";
            this.ledger = ledger;
            this.failOnce = failOnce;
            this.batchAck = batchAck;
            this.ackConc = ackConc;
            this.waitMs = waitMs;
            this.deadline = deadline;
            this.fetchTimeout = Duration.ofMillis(waitMs + 30_000L);
            this.inFlight = new Semaphore(ackConc);
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
            while (System.nanoTime() < deadline && errorsInARow < 20 && !ledger.settled()) {
                Response resp = http.post(FETCH, fetchBody, fetchTimeout);
                ledger.fetchRequests.incrementAndGet();
                if (resp.status != 200) {
                    ledger.failed(resp);
                    errorsInARow++;
                    Thread.sleep(10);
                    continue;
                }
                errorsInARow = 0;
                List<java.util.Map<String, String>> jobs = Json.objects(resp.body, 3, JOB_KEYS);
                if (jobs.isEmpty()) {
                    if (ledger.settled()) return;
                    ledger.emptyFetches.incrementAndGet();
                    // a held (long-poll) fetch may ask again at once; otherwise back off 1..64 ms
                    if (waitMs == 0 || resp.nanos < waitMs * 500_000L) Thread.sleep(1L << Math.min(6, emptyInARow++));
                    continue;
                }
                emptyInARow = 0;
                List<String[]> items = new ArrayList<>(); // {id, "ack"|"fail"}
                for (java.util.Map<String, String> j : jobs) {
                    String id = j.get("id");
                    if (id == null) continue;
                    int seen = ledger.fetched(id);
                    if (seen > (failOnce ? 2 : 1)) continue; // a duplicate delivery: counted, not handled
                    int attempt = parseInt(j.get("attempt"), seen);
                    items.add(new String[] {id, failOnce && attempt <= 1 ? "fail" : "ack"});
                }
                if (items.isEmpty()) continue;
                if (batchAck) sendBatch(items); else sendEach(items);
            }
        }

        private void sendEach(List<String[]> items) throws InterruptedException {
            for (String[] item : items) {
                inFlight.acquire();
                String id = item[0];
                boolean fail = item[1].equals("fail");
                String path = fail ? "/ojs/v1/workers/nack" : "/ojs/v1/workers/ack";
                String body = "{\"job_id\":\"" + id + "\",\"worker_id\":\"" + workerId + "\","
                        + (fail ? "\"error\":" + FLAKY : "\"result\":{}") + "}";
                http.postAsync(path, body).whenComplete((resp, ex) -> {
                    try {
                        if (ex != null) {
                            ledger.failed(ex);
                            ledger.gaveUp.incrementAndGet();
                        } else if (resp.status != 200) {
                            ledger.failed(resp);
                            ledger.gaveUp.incrementAndGet();
                        } else {
                            ledger.ackLatency.record(resp.nanos);
                            String state = stateOf(resp.body);
                            settle(id, fail, state);
                        }
                    } finally {
                        inFlight.release();
                    }
                });
            }
            inFlight.acquire(ackConc);
            inFlight.release(ackConc);
        }

        private void sendBatch(List<String[]> items) throws InterruptedException {
            StringBuilder sb = new StringBuilder(80 * items.size() + 64);
            sb.append("{\"worker_id\":\"").append(workerId).append("\",\"acks\":[");
            for (int i = 0; i < items.size(); i++) {
                if (i > 0) sb.append(',');
                sb.append("{\"job_id\":\"").append(items.get(i)[0]).append("\",");
                sb.append(items.get(i)[1].equals("fail") ? "\"error\":" + FLAKY : "\"result\":{}").append('}');
            }
            Response resp = http.post(BATCH_ACK, sb.append("]}").toString());
            if (resp.status != 200) {
                ledger.failed(resp);
                ledger.gaveUp.addAndGet(items.size());
                return;
            }
            ledger.ackLatency.record(resp.nanos);
            java.util.Map<String, java.util.Map<String, String>> byId = new java.util.HashMap<>();
            for (java.util.Map<String, String> res : Json.objects(resp.body, 3, RESULT_KEYS)) {
                if (res.get("job_id") != null) byId.put(res.get("job_id"), res);
            }
            for (String[] item : items) {
                java.util.Map<String, String> res = byId.get(item[0]);
                if (res == null || !"true".equals(res.get("ok"))) {
                    ledger.failed.incrementAndGet();
                    ledger.firstError.compareAndSet(null, "batch ACK item " + item[0] + ": "
                            + (res == null ? "missing from the answer" : "ok=" + res.get("ok")) + " in "
                            + (resp.body.length() > 300 ? resp.body.substring(0, 300) + "..." : resp.body));
                    ledger.gaveUp.incrementAndGet();
                } else {
                    settle(item[0], item[1].equals("fail"), res.get("state"));
                }
            }
        }

        /** Books an answered ACK (completed) or FAIL (must come back unless its state is terminal). */
        private void settle(String id, boolean fail, String state) {
            if (!fail) {
                ledger.complete(id);
            } else if (state != null && Set.of("discarded", "dead", "completed", "cancelled").contains(state)) {
                ledger.failed.incrementAndGet();
                ledger.firstError.compareAndSet(null, "FAIL of " + id + " left it " + state);
                ledger.gaveUp.incrementAndGet();
            }
        }
    }

    static final String FLAKY = "{\"type\":\"Flaky\",\"message\":\"first attempt fails\"}";

    private static String stateOf(String body) {
        List<java.util.Map<String, String>> o = Json.objects(body, 1, Set.of("state"));
        return o.isEmpty() ? null : o.get(0).get("state");
    }

    private static int parseInt(String s, int dflt) {
        try {
            return s == null ? dflt : Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    /**
     * W3: --workers (8) loops idle in a long-poll fetch (wait_ms --wait-ms, default 30000; if the server does not
     * hold the request, they poll every --poll-ms), then --jobs (200) jobs are enqueued one at a time, --gap-ms (20)
     * apart. Latency = fetch answer carrying the job received - just before its enqueue request was sent.
     */
    private Outcome w3(String queue) throws InterruptedException {
        int jobs = pick("--jobs", opt.jobs, 200);
        int workers = pick("--workers", opt.workers, 8);
        int fetchCount = pick("--fetch-count", opt.fetchCount, 1);
        int waitMs = opt.waitMs >= 0 ? opt.waitMs : 30_000;
        Ledger ledger = new Ledger(jobs);

        // does the server hold an empty fetch? (probe with up to 400 ms on the still empty queue)
        boolean longPoll = false;
        String mode;
        if (waitMs > 0) {
            int probeMs = Math.min(waitMs, 400);
            Response p = http.post(FETCH, "{\"queues\":[\"" + queue + "\"],\"count\":1,\"worker_id\":\"bench-probe\""
                    + ",\"wait_ms\":" + probeMs + "}", Duration.ofMillis(probeMs + 30_000L));
            if (p.status == 200 && Json.ids(p.body, 3).isEmpty()) longPoll = p.nanos >= probeMs * 500_000L;
            else if (p.status != 200) System.out.println("note: fetch with wait_ms answered " + p.status);
            mode = longPoll ? "long-poll wait_ms=" + waitMs
                    : "poll every " + opt.pollMs + " ms (server answered an empty wait_ms=" + probeMs + " fetch in "
                    + String.format(Locale.ROOT, "%.1f", p.nanos / 1e6) + " ms)";
        } else {
            mode = "poll every " + opt.pollMs + " ms";
        }
        System.out.println("w3: fetch mode: " + mode);
        boolean lp = longPoll;
        ConcurrentHashMap<String, Long> arrived = new ConcurrentHashMap<>();
        ConcurrentHashMap<String, Long> sent = new ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        StatsWindow win = openStats();
        Cpu cpu0 = Cpu.now(serverPid);
        long tStart = System.nanoTime();
        List<Thread> loops = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            String workerId = "bench-" + ProcessHandle.current().pid() + "-" + queue + "-w" + i;
            String body = "{\"queues\":[\"" + queue + "\"],\"count\":" + fetchCount + ",\"worker_id\":\"" + workerId
                    + "\"" + (lp ? ",\"wait_ms\":" + waitMs : "") + "}";
            Thread t = new Thread(() -> {
                try {
                    int errorsInARow = 0;
                    while (!stop.get() && errorsInARow < 20) {
                        Response resp = http.post(FETCH, body, Duration.ofMillis(waitMs + 30_000L));
                        long at = System.nanoTime();
                        ledger.fetchRequests.incrementAndGet();
                        if (resp.status != 200) {
                            if (!stop.get()) ledger.failed(resp);
                            errorsInARow++;
                            Thread.sleep(10);
                            continue;
                        }
                        errorsInARow = 0;
                        List<String> ids = Json.ids(resp.body, 3);
                        for (String id : ids) {
                            arrived.putIfAbsent(id, at);
                            if (ledger.fetched(id) > 1) continue;
                            http.postAsync("/ojs/v1/workers/ack", "{\"job_id\":\"" + id + "\",\"worker_id\":\""
                                    + workerId + "\",\"result\":{}}").whenComplete((r, ex) -> {
                                        if (ex != null) ledger.failed(ex);
                                        else if (r.status != 200) ledger.failed(r);
                                        else ledger.complete(id);
                                    });
                        }
                        if (ids.isEmpty() && !lp && opt.pollMs > 0) Thread.sleep(opt.pollMs);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "w3-loop-" + i);
            t.setDaemon(true);
            t.start();
            loops.add(t);
        }
        Thread.sleep(opt.idleMs); // workers idle (graphile's W3 waits 3 s too)
        long next = System.nanoTime();
        for (int i = 0; i < jobs; i++) {
            long t0 = System.nanoTime();
            Response resp = http.post("/ojs/v1/jobs", jobJson(queue, i));
            List<String> ids = resp.status == 201 ? Json.ids(resp.body, 2) : List.of();
            if (ids.size() == 1) {
                sent.put(ids.get(0), t0);
                ledger.enqueued.add(ids.get(0));
            } else {
                ledger.failed(resp);
            }
            next += opt.gapMs * 1_000_000L;
            long wait = next - System.nanoTime();
            if (wait > 0) Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline && !arrived.keySet().containsAll(sent.keySet())) Thread.sleep(5);
        while (System.nanoTime() < deadline && ledger.completedCount.get() < ledger.enqueued.size()) Thread.sleep(5);
        long nanos = System.nanoTime() - tStart;
        Cpu cpu1 = Cpu.now(serverPid);
        win.end();
        stop.set(true);
        joinLoops(loops, lp ? 200 : 2000);

        Latencies lat = new Latencies(jobs);
        for (var e : sent.entrySet()) {
            Long a = arrived.get(e.getKey());
            if (a != null) lat.record(a - e.getValue());
        }
        Outcome o = new Outcome("w3", jobs);
        o.nanos = nanos;
        o.clientCores = cpu1.clientCores(cpu0, nanos);
        o.serverCores = cpu1.serverCores(cpu0, nanos);
        o.lost = ledger.lost() + (jobs - ledger.enqueued.size());
        o.duplicates = ledger.duplicates(1);
        o.failed = ledger.failed.get();
        o.firstError = ledger.firstError.get();
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
        o.extra.put("fetches", ledger.fetchRequests.get());
        win.settleInto(o);
        return o;
    }

    static Object round2(double v) {
        return Double.isNaN(v) ? null : Math.round(v * 100) / 100.0;
    }

    /** Ids enqueued, fetch counts per id, ids completed; the lost/duplicate checks of every workload. */
    static final class Ledger {
        final int target;
        final Set<String> enqueued = ConcurrentHashMap.newKeySet();
        final ConcurrentHashMap<String, AtomicInteger> fetches = new ConcurrentHashMap<>();
        final Set<String> completed = ConcurrentHashMap.newKeySet();
        final AtomicInteger completedCount = new AtomicInteger(), gaveUp = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger(), fetchRequests = new AtomicInteger();
        final AtomicInteger emptyFetches = new AtomicInteger();
        final AtomicReference<String> firstError = new AtomicReference<>();
        final Latencies ackLatency;
        volatile long doneNanos;

        /**
         * Long (--duration) runs: a completed id is dropped from {@code enqueued} and {@code fetches}, so only
         * {@code completed} grows; a later delivery of a completed id is counted in {@code lateDuplicates}.
         */
        final boolean prune;
        final AtomicInteger lateDuplicates = new AtomicInteger();

        Ledger(int target) {
            this(target, false);
        }

        Ledger(int target, boolean prune) {
            this.target = target;
            this.prune = prune;
            this.ackLatency = new Latencies(2 * target + 1024);
        }

        int fetched(String id) {
            if (prune && completed.contains(id)) {
                lateDuplicates.incrementAndGet();
                return Integer.MAX_VALUE / 2;
            }
            return fetches.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
        }

        void complete(String id) {
            if (!completed.add(id)) return;
            if (prune) {
                enqueued.remove(id);
                fetches.remove(id);
            }
            if (completedCount.incrementAndGet() == target) {
                doneNanos = System.nanoTime();
                synchronized (this) {
                    notifyAll();
                }
            }
        }

        boolean settled() {
            return completedCount.get() + gaveUp.get() >= target;
        }

        /** Waits until every job is completed or given up, or the deadline; true unless the deadline passed. */
        boolean awaitSettled(long deadline) throws InterruptedException {
            while (!settled()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) return false;
                synchronized (this) {
                    if (!settled()) wait(Math.max(1, Math.min(5, left / 1_000_000L)));
                }
            }
            return true;
        }

        void failed(Response resp) {
            failed.incrementAndGet();
            String body = resp.body.length() > 300 ? resp.body.substring(0, 300) + "..." : resp.body;
            firstError.compareAndSet(null, (resp.status < 0 ? "" : "HTTP " + resp.status + " ") + body);
        }

        void failed(Throwable t) {
            failed.incrementAndGet();
            firstError.compareAndSet(null, (t.getCause() != null ? t.getCause() : t).toString());
        }

        /** Enqueued (accepted) but never completed. */
        int lost() {
            int n = 0;
            for (String id : enqueued) if (!completed.contains(id)) n++;
            return n;
        }

        /** Deliveries beyond {@code expected} per id, plus fetched ids this run never enqueued. */
        int duplicates(int expected) {
            int n = lateDuplicates.get();
            for (var e : fetches.entrySet()) {
                n += Math.max(0, e.getValue().get() - expected);
                if (!enqueued.contains(e.getKey())) n++;
            }
            return n;
        }

        int completedWithFetches(int count) {
            int n = 0;
            for (String id : completed) {
                AtomicInteger c = fetches.get(id);
                if (c != null && c.get() == count) n++;
            }
            return n;
        }
    }

    /** One workload's figures; prints a human line, notes, and the RESULT json line. */
    static final class Outcome {
        final String workload;
        final int jobs;
        final java.util.Map<String, Object> extra = new java.util.LinkedHashMap<>();
        final List<String> notes = new ArrayList<>();
        long nanos;
        int lost, duplicates, failed;
        double rate, clientCores = Double.NaN, serverCores = Double.NaN;
        boolean timedOut, bad;
        String skipped, firstError;

        Outcome(String workload, int jobs) {
            this.workload = workload;
            this.jobs = jobs;
        }

        static Outcome of(String w, int jobs, Result r, Ledger ledger) {
            Outcome o = new Outcome(w, jobs);
            o.nanos = r.nanos;
            o.rate = r.nanos == 0 ? 0 : r.jobs / secs(r.nanos);
            o.clientCores = r.clientCores;
            o.serverCores = r.serverCores;
            o.timedOut = r.timedOut;
            o.failed = ledger.failed.get();
            o.firstError = ledger.firstError.get();
            return o;
        }

        static Outcome skipped(String w, String why) {
            Outcome o = new Outcome(w, 0);
            o.skipped = why;
            return o;
        }

        static Outcome failed(String w, int jobs, Ledger ledger, String why) {
            Outcome o = new Outcome(w, jobs);
            o.bad = true;
            o.failed = Math.max(1, ledger.failed.get());
            o.firstError = ledger.firstError.get();
            o.notes.add(why);
            o.rate = Double.NaN;
            return o;
        }

        void requestLatency(Latencies l) {
            if (l.count() == 0) return;
            extra.put("request_p50_ms", round2(l.percentileMs(0.50)));
            extra.put("request_p99_ms", round2(l.percentileMs(0.99)));
        }

        /** Prints the result; returns the exit code contribution (1 when lost/duplicates/failed != 0). */
        int print(Rss rss) {
            java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("workload", workload);
            if (skipped != null) {
                System.out.printf("%-14s skipped: %s%n", workload, skipped);
                m.put("skipped", skipped);
                System.out.println("RESULT " + toJson(m));
                return 0;
            }
            m.put("jobs", jobs);
            m.put("elapsed_s", Math.round(secs(nanos) * 1000) / 1000.0);
            if (!Double.isNaN(rate)) m.put("jobs_per_s", Math.round(rate * 10) / 10.0);
            m.putAll(extra);
            m.put("lost", lost);
            m.put("duplicates", duplicates);
            m.put("failed_requests", failed);
            if (timedOut) m.put("timed_out", true);
            m.put("client_cores", round2(clientCores));
            if (!Double.isNaN(serverCores)) m.put("server_cores", round2(serverCores));
            if (rss != null) {
                m.put("server_vmhwm_mib", Math.round(rss.hwmMiB()));
                m.put("server_vmrss_mib", Math.round(rss.rssMiB()));
            }
            String rateText = Double.isNaN(rate) ? "" : String.format(Locale.ROOT, " %.0f jobs/s", rate);
            System.out.printf(Locale.ROOT, "%-14s %d jobs in %.2fs%s  lost=%d duplicates=%d failed=%d%n", workload,
                    jobs, secs(nanos), rateText, lost, duplicates, failed);
            for (String n : notes) System.out.println("note: " + workload + ": " + n);
            if (rss != null) {
                System.out.printf(Locale.ROOT, "server-rss     pid=%d VmHWM=%.0fMiB (peak since start) VmRSS=%.0fMiB%n",
                        rss.pid(), rss.hwmMiB(), rss.rssMiB());
            }
            boolean fail = bad || timedOut || lost != 0 || duplicates != 0 || failed != 0;
            if (fail) {
                System.out.println("WARNING: " + workload + ": lost=" + lost + " duplicates=" + duplicates + " failed="
                        + failed + (timedOut ? " (timed out)" : "") + (firstError != null ? "; first error: "
                        + firstError : ""));
            }
            System.out.println("RESULT " + toJson(m));
            return fail ? 1 : 0;
        }

        static String toJson(java.util.Map<String, Object> m) {
            StringBuilder sb = new StringBuilder("{");
            for (var e : m.entrySet()) {
                if (sb.length() > 1) sb.append(',');
                sb.append('"').append(e.getKey()).append("\":");
                Object v = e.getValue();
                if (v instanceof List<?> list) {
                    sb.append('[');
                    for (int i = 0; i < list.size(); i++) sb.append(i > 0 ? "," : "").append(list.get(i));
                    sb.append(']');
                } else if (v == null || v instanceof Number || v instanceof Boolean) {
                    sb.append(v instanceof Double d && (d.isNaN() || d.isInfinite()) ? "null" : String.valueOf(v));
                } else {
                    sb.append('"').append(v.toString().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
                }
            }
            return sb.append('}').toString();
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
        sendAll(r, opt.connections, next, request, onResponse);
    }

    /** {@link #sendAll(Result, IntSupplier, IntFunction, ObjIntConsumer)} with {@code maxInFlight} in flight. */
    private void sendAll(Result r, int maxInFlight, IntSupplier next, IntFunction<Req> request,
                         ObjIntConsumer<Response> onResponse) throws InterruptedException {
        Semaphore inFlight = new Semaphore(maxInFlight);
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
        inFlight.acquire(maxInFlight);
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
        return jobJson(queue, arg, null);
    }

    /** --unique on: every job carries a unique policy over type and args (all keys distinct: no conflicts). */
    static volatile boolean uniqueJobs;

    /** A no-op job; {@code retry} is a retry policy object (JSON) or null for the server's default. */
    static String jobJson(String queue, int arg, String retry) {
        return "{\"type\":\"bench.noop\",\"args\":[" + arg + "],\"options\":{\"queue\":\"" + queue + "\""
                + (retry == null ? "" : ",\"retry\":" + retry)
                + (uniqueJobs ? ",\"unique\":{\"keys\":[\"type\",\"args\"]}" : "") + "}}";
    }

    static String batchJson(String queue, int firstArg, int size) {
        return batchJson(queue, firstArg, size, null);
    }

    static String batchJson(String queue, int firstArg, int size, String retry) {
        StringBuilder sb = new StringBuilder(64 * size + 16).append("{\"jobs\":[");
        for (int i = 0; i < size; i++) {
            if (i > 0) sb.append(',');
            sb.append(jobJson(queue, firstArg + i, retry));
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

        /** Average cores used by this process since {@code start}. */
        double clientCores(Cpu start, long wallNanos) {
            return cores(clientNanos - start.clientNanos, wallNanos);
        }

        /** Average cores used by the server since {@code start}, NaN if unknown. */
        double serverCores(Cpu start, long wallNanos) {
            return serverNanos >= 0 && start.serverNanos >= 0 ? cores(serverNanos - start.serverNanos, wallNanos)
                    : Double.NaN;
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
        double clientCores = Double.NaN, serverCores = Double.NaN;

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
            Cpu cpu1 = Cpu.now(serverPid);
            this.cpuText = cpu1.since(cpu0, nanos);
            this.clientCores = cpu1.clientCores(cpu0, nanos);
            this.serverCores = cpu1.serverCores(cpu0, nanos);
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
        /** Extra header lines for every request ("Authorization: Bearer ...\r\n"), or "". */
        private final String authLine;

        /** When set, requests go over {@link RawConnection}s instead of the JDK HttpClient. */
        private final boolean raw;
        private final java.util.concurrent.ConcurrentLinkedDeque<RawConnection> idle =
                new java.util.concurrent.ConcurrentLinkedDeque<>();
        private final ExecutorService rawAsync = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "raw-http");
            t.setDaemon(true);
            return t;
        });

        Http(String base, Duration requestTimeout, boolean raw, String token) {
            this.base = base;
            this.authLine = token == null ? "" : "Authorization: Bearer " + token + "\r\n";
            this.requestTimeout = requestTimeout;
            this.raw = raw;
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
            return post(path, json, requestTimeout);
        }

        /** Blocking POST with its own timeout (long-poll fetches); I/O errors become status -1. */
        Response post(String path, String json, Duration timeout) throws InterruptedException {
            long t0 = System.nanoTime();
            if (raw) {
                return rawPost(path, json, timeout, t0);
            }
            try {
                HttpResponse<String> resp = client.send(request(path, json, timeout), HttpResponse.BodyHandlers.ofString());
                return new Response(resp.statusCode(), resp.body(), System.nanoTime() - t0);
            } catch (IOException e) {
                return new Response(-1, e.toString(), System.nanoTime() - t0);
            }
        }

        /** Async POST; completes with the response and its latency, or exceptionally on errors. */
        CompletableFuture<Response> postAsync(String path, String json) {
            long t0 = System.nanoTime();
            if (raw) {
                // one blocking connection per request in flight (the callers' semaphores bound how many)
                return CompletableFuture.supplyAsync(() -> rawPost(path, json, requestTimeout, t0), rawAsync);
            }
            try {
                return client.sendAsync(request(path, json), HttpResponse.BodyHandlers.ofString())
                        .thenApply(resp -> new Response(resp.statusCode(), resp.body(), System.nanoTime() - t0));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e); // never throw: callers hold a semaphore permit
            }
        }

        private HttpRequest request(String path, String json) {
            return request(path, json, requestTimeout);
        }

        private HttpRequest request(String path, String json, Duration timeout) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
                    .header("Content-Type", CONTENT_TYPE).header("Accept", CONTENT_TYPE);
            if (!authLine.isEmpty()) {
                b.header("Authorization", authLine.substring(15, authLine.length() - 2));
            }
            return b.POST(HttpRequest.BodyPublishers.ofString(json)).build();
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
            rawAsync.shutdownNow();
            RawConnection c;
            while ((c = idle.poll()) != null) {
                c.close();
            }
        }

        /** A POST over a pooled keep-alive socket; I/O errors become status -1 (the socket is dropped). */
        private Response rawPost(String path, String json, Duration timeout, long t0) {
            RawConnection c = idle.poll();
            try {
                if (c == null) {
                    c = new RawConnection(URI.create(base), authLine);
                }
                Response r = c.post(path, json, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()), t0);
                idle.push(c);
                return r;
            } catch (IOException e) {
                if (c != null) {
                    c.close();
                }
                return new Response(-1, e.toString(), System.nanoTime() - t0);
            }
        }
    }

    /**
     * A minimal HTTP/1.1 client connection: one blocking keep-alive socket, one request at a time, Content-Length
     * or chunked answers. The JDK HttpClient used about 0.75 of the machine's 2 cores to drive ~1,600 jobs/s, more
     * than the server itself, so it measured mostly itself; this one costs a fraction of that (--client jdk
     * selects the JDK client again).
     */
    static final class RawConnection {
        private final java.net.Socket socket;
        private final java.io.BufferedInputStream in;
        private final java.io.OutputStream out;
        private final String hostHeader;
        private final String authLine;

        RawConnection(URI base, String authLine) throws IOException {
            this.authLine = authLine;
            int port = base.getPort() < 0 ? 80 : base.getPort();
            socket = new java.net.Socket(base.getHost(), port);
            socket.setTcpNoDelay(true);
            in = new java.io.BufferedInputStream(socket.getInputStream(), 65536);
            out = new java.io.BufferedOutputStream(socket.getOutputStream(), 65536);
            hostHeader = base.getHost() + ":" + port;
        }

        Response post(String path, String json, int timeoutMs, long t0) throws IOException {
            byte[] body = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            socket.setSoTimeout(timeoutMs);
            String head = "POST " + path + " HTTP/1.1\r\nHost: " + hostHeader + "\r\nContent-Type: " + CONTENT_TYPE
                    + "\r\nAccept: " + CONTENT_TYPE + "\r\n" + authLine + "Content-Length: " + body.length + "\r\n\r\n";
            out.write(head.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            String status = line();
            if (status == null || !status.startsWith("HTTP/1.1 ")) {
                throw new IOException("bad status line: " + status);
            }
            int code = Integer.parseInt(status.substring(9, 12));
            long length = -1;
            boolean chunked = false;
            for (String h = line(); h != null && !h.isEmpty(); h = line()) {
                int colon = h.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String name = h.substring(0, colon).trim();
                String value = h.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("Content-Length")) {
                    length = Long.parseLong(value);
                } else if (name.equalsIgnoreCase("Transfer-Encoding") && value.equalsIgnoreCase("chunked")) {
                    chunked = true;
                }
            }
            java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
            if (chunked) {
                for (;;) {
                    String size = line();
                    int n = Integer.parseInt(size.split(";")[0].trim(), 16);
                    if (n == 0) {
                        line();
                        break;
                    }
                    buf.write(in.readNBytes(n));
                    line();
                }
            } else if (length > 0) {
                buf.write(in.readNBytes((int) length));
            }
            return new Response(code, buf.toString(java.nio.charset.StandardCharsets.UTF_8), System.nanoTime() - t0);
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder();
            for (int b = in.read(); b >= 0; b = in.read()) {
                if (b == '\n') {
                    int n = sb.length();
                    return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
                }
                sb.append((char) b);
            }
            throw new IOException("connection closed");
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
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

        /**
         * For each object at nesting {@code depth} (as in {@link #ids}), the scalar values of the given keys as raw
         * text (strings unquoted, escapes kept; numbers, true/false/null as written). Nested values are skipped.
         */
        static List<java.util.Map<String, String>> objects(String json, int depth, Set<String> keys) {
            List<java.util.Map<String, String>> out = new ArrayList<>();
            java.util.Map<String, String> current = null;
            int level = 0;
            for (int i = 0; i < json.length(); i++) {
                char c = json.charAt(i);
                if (c == '{' || c == '[') {
                    level++;
                    if (c == '{' && level == depth) {
                        current = new java.util.HashMap<>();
                        out.add(current);
                    }
                } else if (c == '}' || c == ']') {
                    level--;
                } else if (c == '"') {
                    int end = stringEnd(json, i);
                    if (level == depth && current != null) {
                        int colon = skipSpace(json, end + 1);
                        if (colon < json.length() && json.charAt(colon) == ':') {
                            String key = json.substring(i + 1, end);
                            int v = skipSpace(json, colon + 1);
                            if (keys.contains(key) && v < json.length()) {
                                char first = json.charAt(v);
                                if (first == '"') {
                                    int vend = stringEnd(json, v);
                                    current.put(key, json.substring(v + 1, vend));
                                    end = vend;
                                } else if (first != '{' && first != '[') {
                                    int vend = v;
                                    while (vend < json.length() && ",}] \t\r\n".indexOf(json.charAt(vend)) < 0) vend++;
                                    current.put(key, json.substring(v, vend));
                                    end = vend - 1;
                                }
                            }
                        }
                    }
                    i = end;
                }
            }
            return out;
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
        String client = "raw";
        int jobs = 20_000, connections = 32, workers = 8, fetchCount = 50, ackConcurrency = 16, batch = 100;
        int warmup = 2000, timeout = 120;
        String queue = "bench-" + System.currentTimeMillis();
        Set<String> phases = PHASES;
        String serverPid;
        boolean help, queueGiven;
        // peer-comparable workloads (--workload); a value of -1 means "the workload's default"
        List<String> workloads = List.of();
        int batchInFlight = -1, waitMs = -1, pollMs = 10, gapMs = 20, idleMs = 3000;
        boolean drain = true;
        String retryInterval = "PT0S";
        String beforeTiming;
        // --duration: w2/w2-batch fed continuously for S seconds, throughput per --window S
        int duration = 0, window = 15, backlog = 5000;
        String pgStats;
        int pgSettleMs = 0;
        String token = System.getenv("STEADFAST_TOKEN");
        final Set<String> given = new java.util.HashSet<>();

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
            given.add(name);
            switch (name) {
                case "--url" -> url = v.replaceAll("/+$", "");
                case "--client" -> {
                    if (!v.equals("raw") && !v.equals("jdk")) {
                        throw new IllegalArgumentException("--client is raw or jdk");
                    }
                    client = v;
                }
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
                case "--workload" -> workloads = List.copyOf(Arrays.asList(v.split(",")));
                case "--batch-in-flight" -> batchInFlight = positive(name, v);
                case "--wait-ms" -> waitMs = nonNegative(name, v);
                case "--poll-ms" -> pollMs = nonNegative(name, v);
                case "--gap-ms" -> gapMs = nonNegative(name, v);
                case "--idle-ms" -> idleMs = nonNegative(name, v);
                case "--drain" -> {
                    if (!v.equals("on") && !v.equals("off")) throw new IllegalArgumentException("--drain takes on|off");
                    drain = v.equals("on");
                }
                case "--retry-interval" -> retryInterval = v;
                case "--before-timing" -> beforeTiming = v;
                case "--duration" -> duration = nonNegative(name, v);
                case "--window" -> window = positive(name, v);
                case "--backlog" -> backlog = positive(name, v);
                case "--pg-stats" -> pgStats = v;
                case "--pg-stats-settle-ms" -> pgSettleMs = nonNegative(name, v);
                case "--token" -> token = v;
                case "--unique" -> {
                    if (!v.equals("on") && !v.equals("off")) throw new IllegalArgumentException("--unique takes on|off");
                    uniqueJobs = v.equals("on");
                }
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
            if (!WORKLOADS.containsAll(workloads)) {
                throw new IllegalArgumentException("--workload takes a comma list of " + String.join(",", WORKLOADS));
            }
            if (!workloads.isEmpty() && queue.length() > 110) {
                throw new IllegalArgumentException("--queue is at most 110 chars with --workload (a suffix is added)");
            }
            if (!retryInterval.matches("P(T[0-9.]+S)")) {
                throw new IllegalArgumentException("--retry-interval takes an ISO 8601 seconds duration like PT0.001S");
            }
            if (duration > 0 && (workloads.isEmpty() || !List.of("w2", "w2-batch").containsAll(workloads))) {
                throw new IllegalArgumentException("--duration works with --workload w2 or w2-batch");
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
