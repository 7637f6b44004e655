package dev.steadfast.tools.bench;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The options of {@code bench} (see {@link #USAGE}); -1 for a workload option means the workload's default. */
final class BenchOptions implements Cloneable {

    static final String USAGE = """
        usage: java -jar tools/target/steadfast-tools.jar bench [options]

        Load-tests an OJS HTTP server (Steadfast): enqueue, batch-enqueue, fetch+ack; W2's workers also
        over the OJS gRPC binding (--transport).

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
          --workload LIST         comma list of w1-single,w1-bulk,w2,w2-batch,w3,w4,w4-batch,stream-check
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
            stream-check  --jobs (10000) bulk-enqueued, then --workers (1) gRPC StreamJobs with
                       max_concurrent --fetch-count (10), one unary Ack per job: every job must
                       arrive and be acked, and no gap between two jobs may reach 5 s (a stream
                       that stalls); RESULT adds received, acked, longest_gap_ms
          --wait-ms N             w2/w4: send "wait_ms": N with every fetch (default 0: not sent);
                                  w3: the long-poll wait (default 30000; 0 = plain polling)
          --transport http|grpc|grpc-stream
                                  w2: how the worker loops fetch and ack (default http). grpc: Fetch
                                  (--fetch-count) and one Ack per job as unary OJS gRPC calls on one h2c
                                  channel to the --url's host and port (the token as "authorization:
                                  Bearer"); grpc-stream: each loop holds one StreamJobs with
                                  max_concurrent = --fetch-count and ACKs each job with the unary Ack.
                                  Jobs are pushed over HTTP either way; the RESULT's workload is
                                  w2-grpc / w2-grpc-stream, with "transport"
          --drain on|off          w1: afterwards (not timed) fetch+ack every accepted job to check that
                                  none is lost or delivered twice (default on)
          --client-warmup on|off  each workload first runs untimed, the same way and with the same number
                                  of jobs (w3: at most 200), on a side queue (<queue>-<workload>-warmup),
                                  without --before-timing or --pg-stats, until this tool's JIT is quiet (a
                                  run with JIT time under a tenth of its wall time; at most 5 runs), so the
                                  timed run does not measure the tool's own warm-up (default off; not with
                                  --duration)
          Per-workload defaults apply unless the option is given. Each workload uses its own fresh queue
          (<--queue>-<workload>). The default --ack-concurrency 1 with 8 loops keeps 8 ACKs in flight
          (8 jobs finishing at a time), like graphile-worker's concurrency 8 in the peer W2/W4;
          --ack-concurrency 10 puts a whole fetch's acks in flight together (an SDK worker that runs
          its fetched jobs concurrently). Other knobs: --poll-ms, --gap-ms, --idle-ms (w3),
          --batch-in-flight (w1-bulk), --retry-interval ISO (w4), --unique on (every job carries a
          unique policy over type and args, all keys distinct), --rate-limit-keys N (every job
          carries options.rate_limit with one of N keys, bench-k0.., and a concurrency limit of
          1,000,000 that nothing reaches: the keyed claim path), --before-timing CMD (w2/w4: shell
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
    boolean clientWarmup;
    boolean unique;
    int rateLimitKeys;
    String retryInterval = "PT0S";
    String beforeTiming;
    // --duration: w2/w2-batch fed continuously for S seconds, throughput per --window S
    int duration = 0, window = 15, backlog = 5000;
    String pgStats;
    int pgSettleMs = 0;
    String token = System.getenv("STEADFAST_TOKEN");
    String transport = "http";
    Set<String> given = new HashSet<>();

    static BenchOptions parse(String[] args) {
        BenchOptions o = new BenchOptions();
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
            case "--client-warmup" -> {
                if (!v.equals("on") && !v.equals("off")) {
                    throw new IllegalArgumentException("--client-warmup takes on|off");
                }
                clientWarmup = v.equals("on");
            }
            case "--retry-interval" -> retryInterval = v;
            case "--before-timing" -> beforeTiming = v;
            case "--duration" -> duration = nonNegative(name, v);
            case "--window" -> window = positive(name, v);
            case "--backlog" -> backlog = positive(name, v);
            case "--pg-stats" -> pgStats = v;
            case "--pg-stats-settle-ms" -> pgSettleMs = nonNegative(name, v);
            case "--token" -> token = v;
            case "--transport" -> {
                if (!List.of("http", "grpc", "grpc-stream").contains(v)) {
                    throw new IllegalArgumentException("--transport takes http, grpc or grpc-stream");
                }
                transport = v;
            }
            case "--rate-limit-keys" -> rateLimitKeys = positive(name, v);
            case "--unique" -> {
                if (!v.equals("on") && !v.equals("off")) throw new IllegalArgumentException("--unique takes on|off");
                unique = v.equals("on");
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
        if (!Workloads.NAMES.containsAll(workloads)) {
            throw new IllegalArgumentException("--workload takes a comma list of " + String.join(",", Workloads.NAMES));
        }
        if (!workloads.isEmpty() && queue.length() > 100) {
            throw new IllegalArgumentException("--queue is at most 100 chars with --workload (suffixes are added)");
        }
        if (!retryInterval.matches("P(T[0-9.]+S)")) {
            throw new IllegalArgumentException("--retry-interval takes an ISO 8601 seconds duration like PT0.001S");
        }
        if (duration > 0 && (workloads.isEmpty() || !List.of("w2", "w2-batch").containsAll(workloads))) {
            throw new IllegalArgumentException("--duration works with --workload w2 or w2-batch");
        }
        if (!transport.equals("http") && (!workloads.contains("w2")
                || !List.of("w2", "stream-check").containsAll(workloads) || duration > 0)) {
            throw new IllegalArgumentException("--transport " + transport + " works with --workload w2 (no --duration)");
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

    /**
     * These options for the untimed run of {@code --client-warmup} before workload {@code w}: the same shape and job
     * count (W3: at most 200 jobs, its 20 ms gaps would double the run), no statistics window, no command before
     * the clock starts.
     */
    BenchOptions forClientWarmup(String w) {
        BenchOptions c;
        try {
            c = (BenchOptions) clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
        c.given = new HashSet<>(given);
        c.pgStats = null;
        c.pgSettleMs = 0;
        c.beforeTiming = null;
        c.clientWarmup = false;
        if (w.equals("w3")) {
            c.jobs = Math.min(LatencyRun.JOBS, pick("--jobs", jobs, LatencyRun.JOBS));
            c.given.add("--jobs");
        }
        return c;
    }

    /** The option's value if given on the command line, else the workload's default. */
    int pick(String flag, int value, int workloadDefault) {
        return given.contains(flag) ? value : workloadDefault;
    }
}
