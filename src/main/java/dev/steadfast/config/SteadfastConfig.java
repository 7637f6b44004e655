package dev.steadfast.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Steadfast's own settings, under the {@code steadfast.} prefix (environment: {@code STEADFAST_...}). */
@ConfigMapping(prefix = "steadfast")
public interface SteadfastConfig {

    Admin admin();

    Http http();

    Jobs jobs();

    Fetch fetch();

    Errors errors();

    Events events();

    Workers workers();

    Maintenance maintenance();

    Retention retention();

    Retry retry();

    Batching batching();

    Console console();

    Auth auth();

    Cron cron();

    /** Cron schedules (ojs-cron.md): firing, missed occurrences and the runs' lease. */
    interface Cron {
        /**
         * How often due occurrences are looked for (Quarkus scheduler; at least 1s, its resolution, which is also
         * ojs-cron.md 7.3's limit). An occurrence is enqueued within about this long after its time.
         */
        @WithDefault("1s")
        Duration tickInterval();

        /**
         * An occurrence found later than this after its time counts as missed (the server was down or the
         * database unreachable); see {@link #missed()}.
         */
        @WithDefault("PT1M")
        Duration misfireGrace();

        /**
         * What a missed occurrence does: {@code fire-once} enqueues one catch-up run for the earliest missed
         * occurrence (ojs-cron.md 7.3), {@code skip} enqueues nothing; both then move on to the next occurrence
         * after now.
         */
        @WithDefault("fire-once")
        String missed();

        /**
         * The lease of a run whose template sets no visibility_timeout_ms: scheduled runs are often long, and the
         * overlap policy treats a run as running until it finishes, so a lease that ran out after the jobs'
         * default 30 s would hand the same run to a second worker while it still runs.
         */
        @WithDefault("PT10M")
        Duration defaultVisibilityTimeout();
    }

    Clock clock();

    Fairness fairness();

    /** Which clock the server reads for every time it stores or compares (leases, due times, retention). */
    interface Clock {
        /**
         * {@code database} (the default; {@code system} in dev): the machine's clock corrected by its
         * offset to PostgreSQL's {@code clock_timestamp()}, so every instance compares times on one clock;
         * {@code system}: the machine's clock as it is.
         */
        @WithDefault("database")
        String source();

        /** How often the offset to the database's clock is measured again (three round trips each time). */
        @WithDefault("PT30S")
        Duration sampleInterval();
    }

    /**
     * Producers and workers share one server: while workers are busy, producers may not take more than a fixed
     * number of request slots, so a crowd of producers cannot starve the workers (README "Faults and fuzzing").
     */
    interface Fairness {
        /**
         * Most PUSH requests (single or batch) processed at once by this instance while worker requests (fetch,
         * ack, nack, heartbeat, snooze) arrived within the last {@code worker-window}; more wait their turn in
         * arrival order. 0 switches the limit off. Without worker requests there is no limit.
         */
        @WithDefault("8")
        int producerSlots();

        /** How long after a worker request the producer limit still applies. */
        @WithDefault("PT0.2S")
        Duration workerWindow();
    }

    /** Bearer-token authentication of the OJS API (/ojs/...); the console has its own login. */
    interface Auth {
        /**
         * Require a token on every /ojs route except the manifest and health. On unless set to false (off in dev
         * and test). On without any token configured, the server refuses to start.
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * The accepted tokens by name: {@code steadfast.auth.tokens."ci-worker"=worker:sha256:<hex>}, roles
         * {@code producer}, {@code worker}, {@code admin}, {@code readonly} (comma-separated); make one with
         * the server jar's command {@code java -jar quarkus-run.jar token --role worker}.
         */
        java.util.Map<String, String> tokens();

        /** The WARN lines about failed authentications (401 and 403 of the API). */
        FailureLog failureLog();

        /**
         * A client can fail authentication as often as it likes, so its lines are budgeted: at most {@code lines}
         * per {@code window}; the next line logged after a full window says how many were left out.
         */
        interface FailureLog {
            @WithDefault("10")
            int lines();

            @WithDefault("1m")
            Duration window();
        }
    }

    interface Admin {
        /** Serve POST /ojs/v1/admin/reset, which empties every table. Off unless set (on in dev and test). */
        @WithDefault("false")
        boolean resetEnabled();
    }

    interface Http {
        /** Largest request body accepted; larger bodies get 413 payload_too_large. */
        @WithDefault("1048576")
        long maxBodyBytes();
    }

    interface Jobs {
        /** Lease (visibility timeout) of a fetched job when neither the job nor the fetch sets one. */
        @WithDefault("PT30S")
        Duration defaultVisibilityTimeout();

        /** Execution timeout of a job that sets no timeout_ms (ojs-core.md recommends 30 minutes). */
        @WithDefault("PT30M")
        Duration defaultTimeout();

        /** Most jobs one POST /ojs/v1/jobs/batch may carry. */
        @WithDefault("1000")
        int maxBatch();

        /** Upper bound accepted for timeout_ms and visibility_timeout_ms. */
        @WithDefault("P7D")
        Duration maxTimeout();
    }

    interface Fetch {
        /** Largest count one fetch may ask for. */
        @WithDefault("1000")
        int maxCount();

        /**
         * Longest a long-poll FETCH ({@code wait_ms}) is held before it answers empty (ojs-security: a maximum poll
         * duration, 30 s by default). A larger wait_ms is cut to this.
         */
        @WithDefault("PT30S")
        java.time.Duration maxWait();

        /**
         * How often a waiting FETCH looks for work on its own, in case a notification was lost (another instance's
         * retry coming due, a dropped listening connection).
         */
        @WithDefault("PT1S")
        java.time.Duration pollInterval();

        /**
         * How often FETCH itself takes back expired leases, beside its claim (at most once per interval per
         * instance), so a job whose worker vanished is claimable again without waiting for the lease reaper's tick.
         */
        @WithDefault("PT0.1S")
        java.time.Duration reapInterval();

        /** Listen for other instances' new jobs with PostgreSQL LISTEN/NOTIFY (off: only this instance's pushes and the poll wake waiters). */
        @WithDefault("true")
        boolean listen();
    }

    interface Errors {
        /** Error history entries kept per job, most recent first to go; never fewer than 10. */
        @WithDefault("50")
        int historySize();

        /** Backtrace frames kept per error entry. */
        @WithDefault("50")
        int backtraceMaxFrames();

        /** Backtrace characters kept per error entry. */
        @WithDefault("10000")
        int backtraceMaxChars();
    }

    interface Events {
        /** Recent lifecycle events kept in memory for GET /ojs/v1/events. */
        @WithDefault("10000")
        int bufferSize();

        /**
         * Share lifecycle events with the other instances on the same database (NOTIFY on the channel
         * {@code steadfast_events}), so GET /ojs/v1/events and its stream show every instance's events. Events
         * are only sent while another instance is present.
         */
        @WithDefault("true")
        boolean share();
    }

    interface Workers {
        /**
         * Honour a {@code test_directive} ("quiet" or "terminate") in a leased job's meta by returning it from that
         * worker's heartbeats. A hook for testing worker SDKs' directive handling (the OJS conformance suite uses
         * it); off unless set (on in dev and test).
         */
        @WithDefault("false")
        boolean testDirectives();

        /** A worker not heard from (fetch or heartbeat) for this long is shown as stale and later forgotten. */
        @WithDefault("PT30S")
        Duration heartbeatTimeout();

        /**
         * Refuse (400) a FETCH, ACK, FAIL, snooze or batch ACK that does not name its {@code worker_id}, so every
         * answer is checked against the lease holder. Off by default: the official OJS SDKs send no worker_id on
         * ACK and FAIL.
         */
        @WithDefault("false")
        boolean requireWorkerId();

        /**
         * While this server shuts down (the {@code quarkus.shutdown.delay} after SIGTERM), answer heartbeats with
         * the directive {@code quiet} so workers stop fetching and drain (ojs-graceful-shutdown.md). Turn it off
         * where several instances run behind one address and a rolling restart of one should not quiet the workers
         * that happen to reach it.
         */
        @WithDefault("true")
        boolean quietOnShutdown();
    }

    /**
     * The maintenance tasks run on the Quarkus scheduler ({@code @Scheduled}, one run of a task at a time per
     * instance). Intervals are durations of at least one second ({@code 1s}, {@code PT1S}, {@code 60s}).
     */
    interface Maintenance {
        /** How often expired leases are looked for (each run is one indexed query when nothing expired). */
        @WithDefault("1s")
        Duration leaseReaperInterval();

        /** How often due scheduled and retryable jobs are made available (fetch claims due jobs itself). */
        @WithDefault("1s")
        Duration promoterInterval();

        /** How often finished jobs past retention are deleted. */
        @WithDefault("60s")
        Duration prunerInterval();

        /** How often jobs whose expires_at passed are discarded (FETCH also does it; at least {@code 1s}). */
        @WithDefault("1s")
        Duration expiryInterval();

        /**
         * How often workflows are advanced for member jobs that finished outside a worker's ACK/FAIL (lease
         * reaper, expiry, a single job's cancel, operators); at least {@code 1s}.
         */
        @WithDefault("1s")
        Duration workflowInterval();

        /** Longest a run may take before it is abandoned and reported (one log line; the next run is on time). */
        @WithDefault("30s")
        Duration runTimeout();

        /** Readiness is DOWN when a task has not succeeded for this many of its intervals. */
        @WithDefault("10")
        int staleAfterIntervals();

        /** Rows one maintenance statement handles; a task loops until a batch comes back short. */
        @WithDefault("500")
        int batchSize();
    }

    interface Retention {
        /** Completed, cancelled and (not dead-lettered) discarded jobs are deleted this long after they finished. */
        @WithDefault("P7D")
        Duration finished();

        /**
         * Dead-lettered jobs are kept until an operator deletes them. Set a duration (e.g. P180D) to have them
         * deleted that long after they were dead-lettered; unset, they are never pruned.
         */
        java.util.Optional<Duration> deadLetter();

        /**
         * Finished workflows (completed, failed, cancelled) are deleted this long after they finished, with their
         * members' bookkeeping, once none of their jobs is still live; unset, the same as {@link #finished()}.
         * Their jobs are pruned by their own rules and keep their {@code workflow_id}.
         */
        java.util.Optional<Duration> workflows();
    }

    /**
     * Concurrent PUSH and ACK requests are gathered into one statement each (see coalescing.Coalescer): an idle
     * server sends each at once, a busy one batches what arrives while earlier batches run.
     */
    interface Batching {
        /** Most requests in one batch. */
        @WithDefault("500")
        int maxBatch();

        /**
         * Batches of one kind running at once (each holds a database connection while it runs). One by default:
         * requests that arrive while a batch runs leave together in the next, so a busy server sends fewer,
         * larger statements (measured with 8 workers acking one job per request: 1,504 jobs/s and half the
         * PostgreSQL CPU with 1, against 1,051 with 4; README "Performance").
         */
        @WithDefault("1")
        int maxInFlight();

        /**
         * How long a batch may wait for more requests before it leaves (whole milliseconds; a request never waits
         * longer, and a full batch leaves at once). Zero: a free slot sends what waits at once, the natural batching
         * above. Measured with 8 workers acking one job per request, a linger buys fewer commits per job at the price of
         * every ACK's latency (README "Performance").
         */
        @WithDefault("PT0S")
        Duration linger();

        /**
         * Requests of one kind (PUSH, ACK, FAIL) that may wait for a batch on one instance; one more is refused at
         * once with 503 backend_error ({@code details.reason} server_busy, Retry-After), having done nothing.
         * Four full batches: under the benchmark loads (16 producers, 8 workers) statements averaged 8 requests and
         * the deepest held 127 (README "Performance"), so this only trips when the database has stalled for a while.
         */
        @WithDefault("2000")
        int maxQueued();

        /**
         * On shutdown, after the HTTP requests in flight are done, how long the coalescers may take to write what
         * they still hold (requests whose client went away) before the pool closes.
         */
        @WithDefault("PT10S")
        Duration flushTimeout();
    }

    /**
     * Retry policy scopes, each a partial OJS retry policy in JSON: the job's own policy wins over its type's,
     * which wins over its queue's, which wins over the server default (itself merged over the OJS defaults).
     */
    interface Retry {
        /** The server default, e.g. {"max_attempts": 5}. */
        java.util.Optional<String> defaults();

        /** Per queue: steadfast.retry.queues.billing={"on_exhaustion":"dead_letter"}. */
        java.util.Map<String, String> queues();

        /** Per job type: steadfast.retry.types."email.send"={"max_attempts":10}. */
        java.util.Map<String, String> types();

        /** Smallest effective max_attempts allowed (OJS allows 0: run once, never retry). */
        @WithDefault("0")
        int maxAttemptsMin();

        /** Largest effective max_attempts allowed (e.g. 100); unset, there is no upper bound. */
        java.util.OptionalInt maxAttemptsMax();

        /**
         * What happens to an effective max_attempts outside [max-attempts-min, max-attempts-max]: {@code clamp} to
         * the nearest bound, {@code reset} to the server default's max_attempts (steadfast.retry.defaults, else 3),
         * or {@code reject} the job with 422.
         */
        @WithDefault("clamp")
        dev.steadfast.domain.retry.MaxAttemptsRule.Mode maxAttemptsOutOfRange();
    }

    /** The operator console under /admin. */
    interface Console {
        /** Require a login for every console page. On unless set to false (off in dev). */
        @WithDefault("true")
        boolean authEnabled();

        /** The console user's name. */
        @WithDefault("admin")
        String username();

        /**
         * The console user's password as a PBKDF2-HMAC-SHA256 hash, {@code pbkdf2-sha256$<iterations>$<salt>$<hash>}
         * (base64); make one with {@code java -jar quarkus-run.jar hash-password}. Without it, nobody can log in.
         */
        java.util.Optional<String> passwordHash();

        /**
         * The key that signs session cookies (32 characters or more). When unset, a random key is made at start-up:
         * sessions then end when the server restarts and are valid on this instance only.
         */
        java.util.Optional<String> sessionSecret();

        /** How long a login lasts. */
        @WithDefault("PT8H")
        Duration sessionTimeout();

        /**
         * Send cookies with the Secure attribute (HTTPS only). When unset, they are Secure when the request
         * arrived over HTTPS (behind a proxy, enable quarkus.http.proxy.proxy-address-forwarding for that).
         */
        java.util.Optional<Boolean> secureCookies();

        /**
         * How old the depth counts (jobs per queue and state, dead letters per queue) on the overview and queues
         * pages may be. Counting a million-row table takes a fraction of a second, so one count serves every
         * console request for this long, and is refreshed in the background after that; PT0S counts every time.
         */
        @WithDefault("PT5S")
        Duration countsMaxAge();

        /** Failed logins from one address within 15 minutes before further attempts are refused (429). */
        @WithDefault("10")
        int maxFailedLogins();
    }
}
