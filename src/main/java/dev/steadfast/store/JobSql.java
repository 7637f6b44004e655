package dev.steadfast.store;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every statement the server runs against the live jobs table (and, when a job finishes, the history it moves to), each named for the transition it makes, with the
 * reason it looks the way it does. Times are always bound from the application clock ($n), never now(), so a
 * fixed clock in tests governs the database as well.
 */
public final class JobSql {

    private JobSql() {
    }

    /**
     * PUSH, for one job or many: one statement over parallel arrays, so a batch costs one round trip. Tags travel
     * as one JSON array text per job because PostgreSQL arrays cannot be ragged. unique_key is NULL for a job without
     * a unique policy (such a job never enters jobs_unique_key_idx). rate_limit_key is NULL for a job without a keyed
     * rate limit (V21: it never enters the keyed indexes). tenant_id is the job's meta.tenant_id, already checked by
     * the parser (domain.TenantId), NULL without one (V23: such a job never enters the tenant indexes).
     *
     * <p>This form is for jobs whose ids the server chose (domain.JobIds: strictly increasing within an instance, 62
     * random bits between instances: they do not collide), so it has no conflict clause: ON CONFLICT makes every row a
     * speculative insertion, one WAL record and about a tenth of the statement's time more per job (1,000 jobs: 11.9
     * against 10.2 ms, 5 against 4 WAL records a job), and a batch that must be all or nothing needs no transaction
     * around one statement that cannot skip a row.
     */
    static final String INSERT_NEW_JOBS = insertJobs(false);

    /**
     * PUSH when some job's id was chosen by the client ($20 true): a duplicate id is skipped rather than raised, and
     * the caller compares the returned ids with the ones it sent. Such an id must not be taken by a finished job
     * either: the history's id index is probed for those ids only.
     */
    static final String INSERT_JOBS = insertJobs(true);

    /**
     * Announces on steadfast_jobs (store.JobNotifications) each queue that gets an available job from a PUSH: one
     * pg_notify per distinct queue, from the arrays the statement inserts ($3 the queues, $9 the states), sent by
     * PostgreSQL at commit. The INSERT reads it as a one-time filter, {@code (SELECT n FROM notified) >= 0}, always
     * true, so it runs once and before the rows. Until V41 an AFTER INSERT trigger did this from a transition table
     * of the inserted rows, which PostgreSQL filled with every whole row: an INSERT of 1,000 jobs took 9.27 ms with it
     * and 8.60 ms in this form (medians of 30 alternating runs in psql,
     * docs/performance/2026-11-30-live-columns-by-change.md). A duplicate client id that INSERT_JOBS skips still
     * announces its queue: a waiter then finds nothing and waits again.
     */
    private static String notifyPushed() {
        return """
            WITH notified AS MATERIALIZED (
                SELECT count(pg_notify('%s', d.queue)) AS n
                FROM (SELECT DISTINCT p.queue FROM unnest($3::text[], $9::text[]) AS p(queue, state)
                      WHERE p.state = 'available') d)
            """.formatted(JobNotifications.CHANNEL);
    }

    /**
     * A pushed job's tags from {@code u.tags}, a JSON array text, or null for none (JobStore.insert): most jobs have
     * none, and for them the subquery over the array's elements is skipped. It was about 0.8 ms of a 1,000-job
     * INSERT's 9 (`psql`, 40 alternated rounds five times: 9.14 against 8.30 ms, medians;
     * docs/performance/2026-12-01-batch-answer-beside-insert.md).
     */
    private static final String TAGS_OF =
            "CASE WHEN u.tags IS NULL THEN '{}'::text[] ELSE ARRAY(SELECT jsonb_array_elements_text(u.tags::jsonb)) END";

    private static String insertJobs(boolean clientIds) {
        return notifyPushed() + """
            INSERT INTO jobs (id, type, queue, args, meta, extensions, priority, tags, state, max_attempts,
                              retry_policy, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at,
                              created_at, enqueued_at, unique_key, rate_limit_key, tenant_id)
            SELECT u.id, u.type, u.queue, u.args::jsonb, u.meta::jsonb, u.ext::jsonb, u.priority,
                   %s, u.state, u.max_attempts,
                   u.retry::jsonb, u.timeout_ms, u.vis_ms, u.run_at, u.scheduled_at, u.expires_at,
                   u.created_at, u.enqueued_at, u.unique_key, u.rate_limit_key, u.meta::jsonb ->> 'tenant_id'
            FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int4[],
                        $8::text[], $9::text[], $10::int4[], $11::text[], $12::int8[], $13::int8[],
                        $14::timestamptz[], $15::timestamptz[], $16::timestamptz[], $17::timestamptz[],
                        $18::timestamptz[], $19::text[], $20::bool[], $21::text[])
                 AS u(id, type, queue, args, meta, ext, priority, tags, state, max_attempts, retry, timeout_ms,
                      vis_ms, run_at, scheduled_at, expires_at, created_at, enqueued_at, unique_key, client_id,
                      rate_limit_key)
            WHERE (SELECT n FROM notified) >= 0""".formatted(TAGS_OF) + (clientIds ? """

              AND NOT (u.client_id AND EXISTS (SELECT 1 FROM job_history h WHERE h.id = u.id))
            ON CONFLICT (id) DO NOTHING
            RETURNING id""" : "");
    }

    /** Registers queues on first use; an existing row is left untouched (no lock, no write). */
    public static final String REGISTER_QUEUES = """
            INSERT INTO queues (name, created_at) SELECT unnest($1::text[]), $2
            ON CONFLICT (name) DO NOTHING""";

    /** The claim's write, shared by every claim (TenantClaimSql's too): the chosen rows ({@code next}) become active. */
    public static final String START = start("$2", "$4", "$5");

    /**
     * The claim's write with the parameters that hold now, the worker and the visibility override. The lease ends at
     * now plus the visibility timeout, never past the execution deadline (domain.Lease#expiry); the lease reaper
     * next looks at the job then (lease_check_at: a heartbeat moves the lease's end but not this, so it can be a HOT
     * update; the reaper moves it when it finds the lease extended, MaintenanceSql.LOCK_EXPIRED_LEASES).
     */
    private static String start(String now, String worker, String visibility) {
        return """
            UPDATE jobs j SET state = 'active', attempt = j.attempt + 1, started_at = %1$s, lease_owner = %2$s,
                   lease_renewed_at = %1$s,
                   enqueued_at = j.run_at, run_at = NULL,
                   execution_deadline = %1$s + j.timeout_ms * interval '1 millisecond',
                   lease_expires_at = %4$s, lease_check_at = %4$s
            FROM next WHERE j.id = next.id
            RETURNING next.ord, j.rate_limit_key,\s""".formatted(now, worker, visibility, """
                LEAST(%1$s + coalesce(%2$s, j.visibility_timeout_ms) * interval '1 millisecond',
                      %1$s + j.timeout_ms * interval '1 millisecond')""".formatted(now, visibility).strip());
    }

    /**
     * A job FETCH may start at $2, the one predicate every claim statement reads its candidates through (these, the
     * tenant claims of store.tenants.TenantClaimSql and the keyed ones of RateLimitStore): in a state FETCH starts
     * from (JobStateMachine's FETCH sources; StateGuardsTest checks every claim statement against the table), due,
     * and not past its expires_at (such a job is never handed out; the plain claims discard it as they pass it over,
     * {@link #withExpired}, and the expiry reaper discards the rest). Every column it
     * reads is in the row the claim's index scan visits anyway; jobs without a deadline cost one comparison.
     */
    public static final String CLAIMABLE = claimable("$2");

    /** {@link #CLAIMABLE} at {@code now}: $2 itself, or $2 {@link #unseen} (the one-queue claims). */
    static String claimable(String now) {
        return "state IN ('available', 'scheduled', 'retryable') AND run_at <= " + now
                + " AND (expires_at IS NULL OR expires_at > " + now + ")";
    }

    /**
     * A parameter the planner estimates without its value: {@code (SELECT $n::type)}, an InitPlan, which the executor
     * evaluates once per execution and an index condition takes as it takes $n, but whose value the planner does not
     * read. PostgreSQL plans a cached prepared statement with the parameters' values (a custom plan) for its first
     * five executions and then keeps its generic plan only while that costs no more than the custom ones did; for a
     * hot statement the custom plans looked cheaper whenever a value made an estimate smaller than the generic one
     * (an array of 3 ids against the 10 a generic unnest() assumes; a timestamp after every run_at; a queue the
     * statistics do not know yet), so the statement was planned anew on every execution, for as long as the
     * connection lived (pg_stat_statements with track_planning during W2 and W4: the claim and COMPLETE planned once
     * per call, 0.6-1.6 ms each, more than they took to run). With every estimated value unseen, both plans are
     * estimated alike and the generic one wins from the sixth execution on (GenericPlansTest;
     * docs/decisions/prepared-statements-cached-and-planned-once.md). Only for the values a WHERE clause, a join or
     * an unnest() estimates: a value the statement only writes costs no estimate.
     */
    static String unseen(String param, String type) {
        return "(SELECT " + param + "::" + type + ")";
    }

    /**
     * Leaves out the jobs of a tenant with a max_concurrency (V30), in every claim but the one that runs under that
     * tenant's lock (store.tenants.TenantLimitStore), so the limit holds whichever path a FETCH takes. A job without
     * a tenant pays one null-bitmap test; a tenant job one probe of a hash built once per statement from
     * tenants_concurrency_idx (empty while no tenant has a limit). The list is the database's, read by the
     * statement itself: an instance that does not know yet that a tenant was limited still leaves its jobs out.
     */
    public static final String NOT_LIMITED_TENANT = """
            (tenant_id IS NULL OR tenant_id NOT IN (SELECT x.id FROM tenants x WHERE x.max_concurrency IS NOT NULL))""";

    /**
     * FETCH across every requested queue in one statement ($1, in the worker's order), at most {@code count} jobs.
     * Per queue, a LATERAL subquery picks the next claimable rows in claim order (priority, then run_at, then id)
     * with FOR UPDATE SKIP LOCKED, so concurrent fetches each take different rows without waiting on one another;
     * the outer ORDER BY takes earlier queues first and the incremental sort stops reading later queues once
     * {@code count} rows are found. The CTE is needed because UPDATE has no LIMIT/ORDER BY of its own (a row locked
     * by a later queue's subquery but cut by the LIMIT is only locked until this statement commits). Due scheduled
     * and retryable jobs are claimed directly (their run_at has passed), without waiting for the promoter. A paused
     * queue yields nothing, and neither does a limited one (rate or concurrency): those are claimed one at a time
     * through CLAIM_LIMITED under their row's lock, so a queue without limits pays nothing for them (the queue row
     * is read either way, for the pause switch). $4 overrides the job's own visibility timeout when not null.
     * enqueued_at becomes the instant the job became available (run_at). RETURNING leaves out what a worker never
     * needs (error history, last error, result); ord and the claim order let the caller restore the order, which
     * RETURNING does not keep. A job whose expires_at has passed is never handed out: the same statement discards
     * it ({@link #withExpired}); the test reads a column of the row the scan visits anyway, so jobs without a
     * deadline cost one comparison. A job with a rate limit key is left to CLAIM_KEYED (rate_limit_key IS NULL, again
     * a column of the row the scan reads: a job without a key pays one null-bitmap test).
     *
     * <p>Planned once, as {@link #claimOne} is: the count is written into the text and the queue list and now are
     * {@link #unseen}. With $3 a LIMIT and $1 a plain array, the generic plan counted 10 rows for unnest($1) and 10%
     * of the table for LIMIT $3, and with 10,000 analyzed jobs in each of two queues it was estimated at 2,225
     * against the custom plans' 54-79: every FETCH of several queues was planned anew (GenericPlansTest).
     */
    static String claimQueues(int count) {
        return CLAIM_QUEUES.computeIfAbsent(count, JobSql::claimQueuesText);
    }

    private static final ConcurrentHashMap<Integer, String> CLAIM_QUEUES = new ConcurrentHashMap<>();

    private static String claimQueuesText(int count) {
        String queues = unseen("$1", "text[]");
        // ANY over (SELECT ...) alone would read the subquery's rows; the cast makes it the array's elements
        return withExpired("queue = ANY(" + queues + "::text[])", NOW_UNSEEN, Integer.toString(count), "$5",
                claim(queues, claimable(NOW_UNSEEN), Integer.toString(count), "p.paused OR p.limited"),
                start("$2", "$3", "$4"));
    }

    /**
     * FETCH from one rate- or concurrency-limited queue (QueueLimitStore.claim): {@link #claimQueues} without the
     * skip of limited queues, run under the queue row's lock with $3 the allowance the limits leave.
     */
    public static final String CLAIM_LIMITED = "WITH " + claim("$1::text[]", CLAIMABLE, "$3", "p.paused") + "\n"
            + START + JobRows.leanColumns("j");

    /**
     * The candidates CTE of {@link #claimQueues} and CLAIM_LIMITED ({@code next AS (...)}): of the queues
     * {@code queues} (a text[]), the first {@code limit} jobs {@code claimable} in claim order.
     */
    private static String claim(String queues, String claimable, String limit, String skipQueue) {
        return """
            next AS (
                SELECT c.id, r.ord FROM unnest(%1$s) WITH ORDINALITY AS r(q, ord)
                CROSS JOIN LATERAL (
                    SELECT id, priority, run_at FROM jobs
                    WHERE queue = r.q AND %2$s AND rate_limit_key IS NULL
                      AND %3$s
                      AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND (%4$s))
                    ORDER BY priority DESC, run_at, id
                    LIMIT %5$s
                    FOR UPDATE SKIP LOCKED) c
                ORDER BY r.ord, c.priority DESC, c.run_at, c.id
                LIMIT %5$s)""".formatted(queues, claimable, NOT_LIMITED_TENANT, skipQueue, limit);
    }

    /**
     * The expiry a plain claim carries (ojs-core 5.2; domain.JobExpiry): the jobs of the claimed queues ({@code
     * queues}, a test of the queue column) that the claim passes over because their expires_at passed at $2 are
     * discarded by the same statement, at most {@code limit} of them, earliest deadline first, with the error entry
     * and the history the expiry reaper writes (entry: {@link #expiryEntry}; {@code keep} the parameter that holds
     * how many entries the history keeps) and returned with {@code ord} NULL and state discarded, so the caller
     * announces them (Telemetry.expired) and no reader sees them as available after the claim. The candidates are
     * read through jobs_expiry_idx, which only jobs waiting with a deadline enter: a queue whose jobs carry no
     * deadline pays one probe of an index that holds none of its rows, and no write; with SKIP LOCKED, neither the
     * reaper nor another claim takes the same job. The guard is EXPIRE's sources (StateGuardsTest).
     */
    static String withExpired(String queues, String now, String limit, String keep, String next, String start) {
        return "WITH gone AS (\n    SELECT id FROM jobs\n    WHERE state IN ('available', 'scheduled', 'retryable', 'pending')"
                + " AND expires_at <= " + now + " AND " + queues + "\n    ORDER BY expires_at\n    LIMIT " + limit
                + "\n    FOR UPDATE SKIP LOCKED),\n" + discardGone(keep) + ",\n" + next + ",\nstarted AS (\n" + start
                + JobRows.leanColumns("j") + ")\nSELECT * FROM started\nUNION ALL\nSELECT NULL::int8 AS ord, ins.rate_limit_key, "
                + JobRows.leanColumns("ins") + " FROM ins";
    }

    /** The move of the claim's expired jobs ({@code gone}) to the history: the expiry reaper's DISCARD_EXPIRED. */
    static String discardGone(String keep) {
        return HistorySql.finish("USING gone",
                "j.id = gone.id AND j.state IN ('available', 'scheduled', 'retryable', 'pending')",
                ", " + expiryEntry("j", "$2") + " AS x_entry",
                Map.of("state", "'discarded'", "discarded_at", "$2", "error", "fin.x_entry",
                        "errors", "jsonb_path_query_array(fin.errors || fin.x_entry, '$[last - $k to last]',"
                                + " jsonb_build_object('k', " + keep + "::int - 1))"));
    }

    /** A timestamp as the wire writes it (http.Timestamps: UTC, milliseconds). */
    private static String stamp(String t) {
        return "to_char(" + t + " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')";
    }

    /**
     * The error entry of a job ({@code j}) discarded at {@code now} because it expired: the entry the expiry reaper
     * records (work.ExpiredJobs, through jobs.ErrorHistoryJson), against the attempt that was never started, its
     * message domain.JobExpiry.reason. ExpiryAtClaimTest compares the two.
     */
    static String expiryEntry(String j, String now) {
        return """
            jsonb_build_object('run', %1$s.run, 'attempt', %1$s.attempt + 1, 'type', 'expired', 'code', 'expired',
                'message', 'Expired: the job''s expires_at (' || %2$s || ') passed while it was ' || %1$s.state
                           || '; discarded at ' || %3$s || ' instead of being handed to a worker.',
                'occurred_at', %3$s, 'timestamp', %3$s, 'retryable', false,
                'details', jsonb_build_object('expires_at', %2$s, 'state', %1$s.state))"""
                .formatted(j, stamp(j + ".expires_at"), stamp(now));
    }

    /**
     * FETCH from one queue ($1, a text) for $3 worker with $4 the visibility override, at most {@code count} jobs:
     * {@link #claimQueues} without the LATERAL over the queue list, with the count written into the statement.
     * PostgreSQL plans a cached prepared statement anew on every execution while its generic plan looks dearer than
     * the custom ones, and for the claim every FETCH took before (then one statement for any number of queues, with
     * the count a parameter) it always did: the generic plan counts 10 rows for unnest($1) and 10% of the queue for
     * LIMIT $3, so every FETCH paid 0.5-1 ms of planning (pg_stat_statements: 6,128 plans for 6,126 calls, 0.96 ms
     * each, beside 1.6 ms of execution). This one's generic plan costs what the custom ones do, so it is planned once per
     * connection (0.013 ms instead of 0.47-0.66 in psql). One text per count; a worker fleet asks for a few counts,
     * and each text is built once ({@link #claimOne}).
     */
    private static String claimOneText(int count) {
        String next = """
            next AS (
                SELECT id, 1::int8 AS ord FROM jobs
                WHERE %s
                ORDER BY priority DESC, run_at, id
                LIMIT %d
                FOR UPDATE SKIP LOCKED)""".formatted(ONE_QUEUE, count);
        return withExpired(ONE_QUEUE_IS, NOW_UNSEEN, Integer.toString(count), "$5", next, start("$2", "$3", "$4"));
    }

    /** The one-queue claims' now ($2) and queue ($1), {@link #unseen}, so that they are planned once. */
    private static final String NOW_UNSEEN = unseen("$2", "timestamptz");
    private static final String ONE_QUEUE_IS = "queue = " + unseen("$1", "text");

    /** The candidates of a claim from one plain queue ($1): claimOne's and each part of claimFrom's. */
    private static final String ONE_QUEUE = """
            %s AND %s AND rate_limit_key IS NULL
                  AND %s
                  AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = $1 AND (p.paused OR p.limited))"""
            .formatted(ONE_QUEUE_IS, claimable(NOW_UNSEEN), NOT_LIMITED_TENANT);

    private static final ConcurrentHashMap<Integer, String> CLAIM_ONE =
            new ConcurrentHashMap<>();

    /** {@link #claimOneText}, built once per count. */
    static String claimOne(int count) {
        return CLAIM_ONE.computeIfAbsent(count, JobSql::claimOneText);
    }

    /**
     * {@link #claimOneText} from a cursor (domain.ClaimCursors, which says why): the priorities above $5 whole, then
     * priority $5 from run_at $6 on, then the priorities below $5 whole. Each part is an index scan of
     * jobs_claim_idx in claim order and the parts follow each other in that order, so the first {@code count} rows
     * of their concatenation are the claim's; PostgreSQL runs a part only while the ones before it gave fewer, and
     * locks only the rows it hands on. The band $5 part starts its scan at ($1, $5, $6) instead of the head of the
     * queue: the entries of jobs claimed before it are never visited, even while vacuum may not remove them.
     *
     * <p>The band's start is a row comparison, {@code (run_at, id) >= ($6, nil)}, which is {@code run_at >= $6}
     * (no id sorts before the nil UUID) but which PostgreSQL does not pair with {@code run_at <= $2} into a range:
     * as a range, the cached generic plan estimated the band at 0.5% of the queue's rows (23 against 511 for the other
     * parts, measured under a held vacuum horizon), and after an ANALYZE of the bloated table it read so few rows
     * more cheaply by a bitmap scan and a sort, which read every entry from the cursor to now, the whole backlog,
     * on every claim. Estimated like the other parts, the band is read in index order and stops after $count rows.
     */
    private static String claimFromText(int count) {
        String part = """
                SELECT * FROM (SELECT id FROM jobs
                    WHERE %%s AND %s
                    ORDER BY priority DESC, run_at, id
                    LIMIT %d
                    FOR UPDATE SKIP LOCKED) AS c""".formatted(ONE_QUEUE, count);
        String next = """
            next AS (
                SELECT id, 1::int8 AS ord FROM (
                    %s
                    UNION ALL
                    %s
                    UNION ALL
                    %s) AS u
                LIMIT %d)""".formatted(part.formatted("priority > " + PRIORITY_UNSEEN),
                part.formatted("priority = " + PRIORITY_UNSEEN + " AND (run_at, id) >= (" + unseen("$6", "timestamptz")
                        + ", '00000000-0000-0000-0000-000000000000'::uuid)"),
                part.formatted("priority < " + PRIORITY_UNSEEN), count);
        return withExpired(ONE_QUEUE_IS, NOW_UNSEEN, Integer.toString(count), "$7", next, start("$2", "$3", "$4"));
    }

    /** claimFrom's cursor priority ($5), {@link #unseen}. */
    private static final String PRIORITY_UNSEEN = unseen("$5", "int4");

    private static final ConcurrentHashMap<Integer, String> CLAIM_FROM =
            new ConcurrentHashMap<>();

    /** {@link #claimFromText}, built once per count. */
    static String claimFrom(int count) {
        return CLAIM_FROM.computeIfAbsent(count, JobSql::claimFromText);
    }


    /**
     * FETCH from queues that hold jobs with a rate limit key (RateLimitStore.claim), inside the transaction that
     * holds the keys' rows: claimQueues' candidates without a key, plus, per allowed key ($6) and queue, that key's
     * next jobs up to its allowance ($7, which the domain's RateLimitRule computed under the key's lock), through
     * jobs_rate_limit_claim_idx. A key may have jobs in several of the queues, so the candidates are cut once more to
     * each key's allowance in the worker's queue order; then the best $3 of all candidates start, in claimQueues' order,
     * so a keyed job never jumps the priority order of the others (ojs-rate-limiting 8.2). A key the caller did not
     * lock (held by another FETCH, or exhausted) is not in $6, so its jobs stay available (8.1). The jobs of tenants
     * with a max_concurrency, keyed or not, are candidates only for the tenants in $8, whose rows the caller locked
     * (store.tenants.TenantLimitStore.allowances), and at most their allowance $9 each is started: so both limits
     * hold for a limited tenant's keyed job, the key's and the tenant's. Rows locked but not chosen stay locked only
     * until the transaction commits, as in claimQueues.
     */
    public static final String CLAIM_KEYED = claimKeyed("p.paused OR p.limited");

    /** CLAIM_KEYED inside a limited queue's transaction (QueueLimitStore.claim), like CLAIM_LIMITED. */
    public static final String CLAIM_KEYED_LIMITED = claimKeyed("p.paused");

    private static String claimKeyed(String skipQueue) {
        return """
            WITH allowed AS (SELECT * FROM unnest($6::text[], $7::int4[]) AS a(k, n)),
            tenants_allowed AS (SELECT * FROM unnest($8::text[], $9::int4[]) AS ta(t, n)),
            plain AS (
                SELECT c.id, c.priority, c.run_at, r.ord, c.tenant_id FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
                CROSS JOIN LATERAL (
                    SELECT id, priority, run_at, tenant_id FROM jobs
                    WHERE queue = r.q AND %3$s AND rate_limit_key IS NULL AND %2$s
                      AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND (%1$s))
                    ORDER BY priority DESC, run_at, id
                    LIMIT $3
                    FOR UPDATE SKIP LOCKED) c),
            keyed AS (
                SELECT c.id, c.priority, c.run_at, r.ord, c.tenant_id, a.k FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
                CROSS JOIN allowed a
                CROSS JOIN LATERAL (
                    SELECT id, priority, run_at, tenant_id FROM jobs
                    WHERE rate_limit_key = a.k AND queue = r.q AND %3$s AND %2$s
                      AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND (%1$s))
                    ORDER BY priority DESC, run_at, id
                    LIMIT least(a.n, $3)
                    FOR UPDATE SKIP LOCKED) c),
            capped AS (
                SELECT x.id, x.priority, x.run_at, x.ord, x.tenant_id FROM (
                    SELECT keyed.*, row_number() OVER (PARTITION BY keyed.k
                                                       ORDER BY keyed.ord, keyed.priority DESC, keyed.run_at, keyed.id) AS rn
                    FROM keyed) x
                JOIN allowed a ON a.k = x.k WHERE x.rn <= a.n),
            both_kinds AS (SELECT * FROM plain UNION ALL SELECT * FROM capped),
            tenant_capped AS (
                SELECT y.id, y.priority, y.run_at, y.ord FROM (
                    SELECT both_kinds.*, row_number() OVER (PARTITION BY both_kinds.tenant_id
                                                            ORDER BY both_kinds.ord, both_kinds.priority DESC,
                                                                     both_kinds.run_at, both_kinds.id) AS tn
                    FROM both_kinds) y
                LEFT JOIN tenants_allowed ta ON ta.t = y.tenant_id WHERE ta.n IS NULL OR y.tn <= ta.n),
            next AS (
                SELECT u.id, u.ord FROM tenant_capped u
                ORDER BY u.ord, u.priority DESC, u.run_at, u.id
                LIMIT $3)
            """.formatted(skipQueue, LIMITED_TENANT_IF_ALLOWED, CLAIMABLE) + START + JobRows.leanColumns("j");
    }

    /**
     * A claimable job's tenant, in the keyed claims: none, one without a max_concurrency, or a limited one whose row
     * the caller locked and passed in $8 (CLAIM_KEYED).
     */
    static final String LIMITED_TENANT_IF_ALLOWED = """
            (tenant_id IS NULL OR tenant_id = ANY($8::text[])
                   OR tenant_id NOT IN (SELECT x.id FROM tenants x WHERE x.max_concurrency IS NOT NULL))""";

    /**
     * ACK for one or many jobs. The guard is the lease, fenced by time: the job must be active, its lease must
     * not have run out at $4 (even before the lease reaper has seen it), and when the request names a worker it
     * must be the one holding the lease, so a late answer from a worker that lost its lease changes nothing. The
     * previous error is cleared (ojs-core 7.3). A workflow step (workflow_id set) is left alone: its ACK must
     * advance the workflow in the same transaction, which COMPLETE_STEP does under the workflow's lock; the test
     * reads a column of the row the update visits anyway, so jobs outside workflows pay one null check. The job
     * leaves the live table for the history in the same statement (HistorySql.finish).
     *
     * <p>The state guard is bound ($5: JobStateMachine.sourceNames(ACK), i.e. active) and compared under the "C"
     * collation (equality is the same under every deterministic collation) for the plan: written out, state = 'active'
     * let the planner use jobs_lease_idx (lease_expires_at, partial on state = 'active'; replaced by
     * jobs_lease_check_idx in V36, which holds no column the guard compares), whose few entries it costs
     * below a probe of jobs_pkey per id, so an ACK read every active job's lease entry (and, while the vacuum horizon
     * is held, every one of the jobs claimed since) to find its own: the plan of every ACK over 30 ms in a W2 under a
     * held horizon (auto_explain). The index's predicate cannot be proven from a comparison under another collation,
     * so no plan, custom or generic, can take it, and each id is one probe of jobs_pkey whatever the number of jobs
     * in flight (FinishPlanTest).
     *
     * <p>An acknowledgement the guard refused is answered from the same statement: {@code refused} (materialized, so
     * a batch that completed every job reads nothing more) names the ids {@code ins} did not write, and each is read
     * once from all_jobs as the statement's snapshot saw it, by the function {@code job_facts} (V37: state, lease,
     * workflow; one row per id, LIMIT 1, so that the estimate of that read does not grow with the history as a join's
     * did, which after an ANALYZE made the generic plan look dearer than the custom plans of the connection's start:
     * see {@link #unseen}), so the refusal is explained (404, 409 naming the state or the lease) and a workflow step
     * goes to its workflow's transaction without a second read (jobs.Refusals.of; a row changed by another
     * transaction since the snapshot, which the facts then do not explain, is read again). The function is STRICT and
     * gets NULL when nothing was refused, so it is not called: the history's partitions are opened and locked only by
     * a COMPLETE that refused something, not by every one (as the read written into this statement was: 41 us a call
     * with a month of day partitions; FinishPlanTest holds it).
     */
    static final String COMPLETE = "WITH " + finishAcks("j.workflow_id IS NULL") + """
            ,
            refused AS MATERIALIZED (
                SELECT a.id FROM unnest(%s) AS a(id)
                WHERE NOT EXISTS (SELECT 1 FROM ins WHERE ins.id = a.id))
            SELECT true AS done, id, type, queue, attempt, started_at, meta->>'traceparent' AS traceparent,
                   NULL::text AS state, NULL::text AS lease_owner, NULL::timestamptz AS lease_expires_at,
                   NULL::uuid AS workflow_id
            FROM ins
            UNION ALL
            SELECT false, f.id, NULL, NULL, NULL, NULL, NULL, f.state, f.lease_owner, f.lease_expires_at, f.workflow_id
            FROM job_facts((SELECT array_agg(r.id) FROM refused r)) f""".formatted(unseen("$1", "uuid[]"));

    /**
     * COMPLETE for a workflow step, inside the workflow's transaction (WorkflowStore), which has locked the tree's
     * root. {@code noted} records the step's start as its workflow's when it is the earliest (what
     * WorkflowSql.NOTE_STARTED does for a FAIL), in the same round trip.
     */
    public static final String COMPLETE_STEP = "WITH " + finishAcks("j.workflow_id IS NOT NULL") + """
            ,
            noted AS (
                UPDATE workflows w SET started_at = ins.started_at FROM ins
                WHERE w.id = ins.workflow_id AND ins.started_at IS NOT NULL
                  AND (w.started_at IS NULL OR ins.started_at < w.started_at))
            SELECT id, type, queue, attempt, started_at, meta->>'traceparent' AS traceparent FROM ins""";

    /**
     * The move of acknowledged jobs to the history, for COMPLETE and COMPLETE_STEP. Every value it estimates is
     * {@link #unseen} (the ids, results and workers, the states, the time), so that each is planned once per
     * connection: with the arrays' lengths in view, a custom plan always looked cheaper than the generic one.
     */
    private static String finishAcks(String which) {
        return HistorySql.finish("USING unnest(" + unseen("$1", "uuid[]") + ", " + unseen("$2", "text[]") + ", "
                        + unseen("$3", "text[]") + ") AS a(id, result, worker)",
                "j.id = a.id AND j.state = ANY(" + unseen("$5", "text[]") + " COLLATE \"C\") AND j.lease_expires_at > "
                        + unseen("$4", "timestamptz")
                        + "\n  AND (a.worker IS NULL OR j.lease_owner IS NULL OR j.lease_owner = a.worker)"
                        + " AND " + which,
                ", a.result AS x_result",
                Map.of("state", "'completed'", "completed_at", "$4::timestamptz",
                        "result", "fin.x_result::jsonb", "error", "NULL", "error_group", "NULL"));
    }

    /**
     * The attempt facts a FAIL decision needs, for many jobs at once, when the claim that handed them out was not
     * this instance's (FailureService keeps its own claims in memory). No lock: the write below is guarded by the
     * attempt it was decided for. all_jobs: a finished job is found too, so its FAIL is refused as a conflict (409),
     * not as an unknown job.
     */
    static final String ATTEMPTS = """
            SELECT id, type, queue, state, attempt, snoozes, run, lease_owner, lease_expires_at,
                   retry_policy::text AS retry_policy, workflow_id
            FROM all_jobs WHERE id = ANY($1::uuid[])""";

    /**
     * RECORD_FAILURES' group counting, over the rows it wrote ({@code retried} and {@code ins}) joined to their
     * outcomes {@code f}: one upsert of error_groups per group and one of error_group_hours per (group, hour).
     * queues and types gain a name only when it is new, up to 20 each.
     */
    private static final String GROUP_FAILURES = """
            failed AS (
                SELECT f.grp, f.gtype, f.gmsg, f.at, w.queue, w.type
                FROM (SELECT id, queue, type FROM retried UNION ALL SELECT id, queue, type FROM ins) w
                JOIN f ON f.id = w.id WHERE f.grp IS NOT NULL),
            grouped AS (
                INSERT INTO error_groups AS g (id, error_type, message, failures, first_seen, last_seen, queues, types)
                SELECT grp, min(gtype), min(gmsg), count(*), min(at), max(at),
                       (array_agg(DISTINCT queue))[1:20], (array_agg(DISTINCT type))[1:20]
                FROM failed GROUP BY grp ORDER BY grp
                ON CONFLICT (id) DO UPDATE SET failures = g.failures + EXCLUDED.failures,
                    first_seen = least(g.first_seen, EXCLUDED.first_seen),
                    last_seen = greatest(g.last_seen, EXCLUDED.last_seen),
                    queues = CASE WHEN EXCLUDED.queues <@ g.queues OR cardinality(g.queues) >= 20 THEN g.queues
                        ELSE (SELECT (array_agg(DISTINCT q))[1:20] FROM unnest(g.queues || EXCLUDED.queues) q) END,
                    types = CASE WHEN EXCLUDED.types <@ g.types OR cardinality(g.types) >= 20 THEN g.types
                        ELSE (SELECT (array_agg(DISTINCT t))[1:20] FROM unnest(g.types || EXCLUDED.types) t) END),
            hourly AS (
                INSERT INTO error_group_hours AS h (group_id, hour, failures)
                SELECT grp, date_trunc('hour', at, 'UTC'), count(*) FROM failed GROUP BY 1, 2 ORDER BY 1, 2
                ON CONFLICT (group_id, hour) DO UPDATE SET failures = h.failures + EXCLUDED.failures)""";

    /**
     * The lease guard of RECORD_FAILURES, over the job j and its outcome f; the state bound ($16:
     * JobStateMachine.sourceNames(FAIL), i.e. active) and compared under "C", for the same reason as COMPLETE's.
     */
    private static final String FAILURE_GUARD = """
            j.id = f.id AND j.state = ANY($16::text[] COLLATE "C") AND j.attempt = f.attempt AND j.lease_expires_at > $3
              AND (f.worker IS NULL OR j.lease_owner IS NULL OR j.lease_owner = f.worker)
              AND (j.workflow_id IS NULL OR $12::bool)""";

    /**
     * FAIL for one or many jobs, and the lease reaper's writes: each outcome was decided in the domain
     * (AttemptOutcomes) for one attempt, and is applied only if the job is still active in that very attempt,
     * held by the worker that reported it (when it named one), with its lease not run out at $3 (the reaper
     * passes -infinity: it handles exactly the leases that ran out). The error is appended to the history in SQL,
     * keeping the newest $2 entries, so the history never travels through the server. One statement, one commit,
     * no lock held across a round trip. $12 false leaves workflow steps alone (a worker's FAIL of a step goes
     * through the workflow's transaction, WorkflowStore); the reaper passes true and the workflow advancer
     * accounts for what it finished.
     *
     * <p>The same statement counts each written failure in its error group ($13: the fingerprint, $14 the type,
     * $15 the normalised message, domain.errors.ErrorGroupKey): the job carries the fingerprint with its error
     * (error_group), and {@code grouped} and {@code hourly} upsert one row per group and per (group, UTC hour)
     * for the rows actually written (a refused write counts nothing). Rows are upserted in key order, so two
     * statements sharing groups lock them in the same order and cannot deadlock; the lock is held until the
     * statement commits. No extra round trip: the hot path stays one statement per coalesced batch.
     */
    static final String RECORD_FAILURES = """
            WITH f AS (
                SELECT * FROM unnest($1::uuid[], $4::int4[], $5::text[], $6::text[], $7::timestamptz[], $8::int8[],
                                     $9::text[], $10::bool[], $11::timestamptz[], $13::int8[], $14::text[], $15::text[])
                     AS f(id, attempt, worker, state, run_at, delay_ms, entry, dead_letter, at, grp, gtype, gmsg)),
            retried AS (
                UPDATE jobs j SET state = f.state, run_at = f.run_at, retry_delay_ms = f.delay_ms,
                       error = f.entry::jsonb, error_group = f.grp,
                       errors = jsonb_path_query_array(j.errors || f.entry::jsonb, '$[last - $k to last]',
                                                       jsonb_build_object('k', $2::int - 1)),
                       lease_expires_at = NULL, execution_deadline = NULL
                FROM f WHERE f.state <> 'discarded' AND\s""" + FAILURE_GUARD + """

                RETURNING\s""" + JobRows.leanColumns("j") + "),\n"
            + HistorySql.finish("USING f", "f.state = 'discarded' AND " + FAILURE_GUARD,
                    ", f.entry AS x_entry, f.delay_ms AS x_delay_ms, f.dead_letter AS x_dead_letter, f.at AS x_at,"
                            + " f.grp AS x_grp",
                    Map.of("state", "'discarded'", "retry_delay_ms", "fin.x_delay_ms",
                            "error", "fin.x_entry::jsonb", "error_group", "fin.x_grp",
                            "errors", "jsonb_path_query_array(fin.errors || fin.x_entry::jsonb, '$[last - $k to last]',"
                                    + " jsonb_build_object('k', $2::int - 1))",
                            "dead_letter", "fin.x_dead_letter", "discarded_at", "fin.x_at", "completed_at", "fin.x_at"))
            + ",\n" + GROUP_FAILURES
            + "\nSELECT * FROM retried UNION ALL SELECT " + JobRows.leanColumns("ins") + " FROM ins";

    /**
     * CANCEL: the job moves to the history; the deleted row says what the job was (previous_state), and the guard
     * lists the states cancel may start from (all of them live).
     */
    static final String CANCEL = "WITH " + HistorySql.finish("", "j.id = $1 AND j.state = ANY($3)", "",
            Map.of("state", "'cancelled'", "cancelled_at", "$2::timestamptz"))
            + "\nSELECT fin.state AS previous_state, " + JobRows.columns("ins") + " FROM ins JOIN fin ON fin.id = ins.id";

    /**
     * SNOOZE (extension): the worker hands the job back to run at $3 without failing it; the attempt does not
     * count against max_attempts (snoozes records it) and the backoff is not lengthened. Same lease guard as ACK,
     * fenced by time like it.
     */
    static final String SNOOZE = """
            UPDATE jobs SET state = CASE WHEN $3 <= $4 THEN 'available' ELSE 'scheduled' END,
                   run_at = greatest($3, $4), scheduled_at = CASE WHEN $3 <= $4 THEN scheduled_at ELSE $3 END,
                   snoozes = snoozes + 1, lease_expires_at = NULL, execution_deadline = NULL
            WHERE id = $1 AND state = 'active' AND lease_expires_at > $4
              AND ($2::text IS NULL OR lease_owner IS NULL OR lease_owner = $2)
            RETURNING\s""" + JobRows.COLUMNS;

    /** ACTIVATE: a pending job becomes available. */
    static final String ACTIVATE = "UPDATE jobs SET state = 'available', run_at = $2, enqueued_at = $2"
            + " WHERE id = $1 AND state = 'pending' RETURNING " + JobRows.COLUMNS;

    /** A job's state wherever it is (all_jobs: the live table, then the history). */
    static final String STATE_OF = "SELECT state, lease_owner, lease_expires_at FROM all_jobs WHERE id = $1";

    static final String LIST_QUEUES = "SELECT name, paused, paused_at, created_at FROM queues ORDER BY name";

    /** The tables the reset hook empties row by row (all but the live table). */
    private static final String RESET_DELETED = "job_history, job_progress, job_checkpoints, queues, workers, cron_jobs,"
            + " cron_runs, schemas, schema_types, workflows, workflow_jobs, rate_limits, tenants, scheduling_pools,"
            + " error_groups, error_group_hours, queue_minutes, queue_minute_rollup, webhook_subscriptions,"
            + " webhook_deliveries";

    /**
     * Empties every table: the conformance suite's and the tests' reset hook, in one transaction (a simple query of
     * several statements). Every table is locked as TRUNCATE locks it, so nothing in flight outlives the reset; the live
     * table is truncated, so the claims of the next test plan against a new, empty table as they did before; the rest
     * is deleted row by row, because a TRUNCATE gives each of its relations new files, about 460 with the history's
     * day partitions and their indexes: 0.07-0.33 s a reset on the test cluster without fsync (0.36-1 s with it), where
     * this takes 0.10-0.15 s (2026-11-29, a busy 2-core machine), before most API tests and every conformance case.
     */
    static final String RESET = "LOCK TABLE jobs, " + RESET_DELETED + " IN ACCESS EXCLUSIVE MODE; TRUNCATE jobs;"
            + " DELETE FROM " + RESET_DELETED.replace(", ", "; DELETE FROM ") + ";";

    /**
     * Unique PUSH, first statement of its transaction: one advisory lock per uniqueness key (UniqueKey.lockNumber),
     * taken in ascending order so two batches sharing keys cannot deadlock, held until commit. The lookup that
     * follows is a new statement, so under READ COMMITTED it sees every job a previous holder of the lock committed.
     */
    static final String LOCK_UNIQUE_KEYS = """
            SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT DISTINCT k FROM unnest($1::int8[]) AS u(k) ORDER BY k) s""";

    /**
     * The jobs holding any of the keys $1 in one of the states $2, newest first: live and finished ones
     * (jobs_unique_key_idx and job_history_unique_key_idx under the all_jobs view).
     */
    static final String UNIQUE_HOLDERS = """
            SELECT id, unique_key, state, created_at, run_at FROM all_jobs
            WHERE unique_key = ANY($1::text[]) AND state = ANY($2::text[])
            ORDER BY created_at DESC LIMIT 1000""";

    /**
     * Unique PUSH with on_conflict replace: cancels the replaced jobs in the PUSH's transaction (ojs-unique-jobs
     * 5.2: cancelled, not deleted), guarded by the states CANCEL may start from ($3).
     */
    static final String CANCEL_REPLACED = "WITH " + HistorySql.finish("",
            "j.id = ANY($1::uuid[]) AND j.state = ANY($3)", "",
            Map.of("state", "'cancelled'", "cancelled_at", "$2::timestamptz"))
            + "\nSELECT " + JobRows.columns("ins") + " FROM ins";
}
