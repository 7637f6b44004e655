package dev.steadfast.store;

/**
 * Every statement the server runs against the jobs table, each named for the transition it makes, with the
 * reason it looks the way it does. Times are always bound from the application clock ($n), never now(), so a
 * fixed clock in tests governs the database as well.
 */
final class JobSql {

    private JobSql() {
    }

    /**
     * PUSH, for one job or many: one statement over parallel arrays, so a batch costs one round trip. A
     * duplicate id is skipped rather than raised, and the caller compares the returned ids with the ones it sent.
     * Tags travel as one JSON array text per job because PostgreSQL arrays cannot be ragged.
     */
    static final String INSERT_JOBS = """
            INSERT INTO jobs (id, type, queue, args, meta, extensions, priority, tags, state, max_attempts,
                              retry_policy, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at,
                              created_at, enqueued_at)
            SELECT u.id, u.type, u.queue, u.args::jsonb, u.meta::jsonb, u.ext::jsonb, u.priority,
                   ARRAY(SELECT jsonb_array_elements_text(u.tags::jsonb)), u.state, u.max_attempts,
                   u.retry::jsonb, u.timeout_ms, u.vis_ms, u.run_at, u.scheduled_at, u.expires_at,
                   u.created_at, u.enqueued_at
            FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int4[],
                        $8::text[], $9::text[], $10::int4[], $11::text[], $12::int8[], $13::int8[],
                        $14::timestamptz[], $15::timestamptz[], $16::timestamptz[], $17::timestamptz[],
                        $18::timestamptz[])
                 AS u(id, type, queue, args, meta, ext, priority, tags, state, max_attempts, retry, timeout_ms,
                      vis_ms, run_at, scheduled_at, expires_at, created_at, enqueued_at)
            ON CONFLICT (id) DO NOTHING
            RETURNING id""";

    /** Registers queues on first use; an existing row is left untouched (no lock, no write). */
    static final String REGISTER_QUEUES = """
            INSERT INTO queues (name, created_at) SELECT unnest($1::text[]), $2
            ON CONFLICT (name) DO NOTHING""";

    /**
     * FETCH from one queue: the CTE picks the next claimable rows in claim order with FOR UPDATE SKIP LOCKED, so
     * concurrent fetches each take different rows without waiting on one another, and the UPDATE makes them
     * active in the same statement. The CTE is needed because UPDATE has no LIMIT/ORDER BY of its own. Due
     * scheduled and retryable jobs are claimed directly (their run_at has passed), without waiting for the
     * promoter. A paused queue yields nothing. $5 overrides the job's own visibility timeout when not null.
     * enqueued_at becomes the instant the job became available (run_at), which the caller sorts on.
     */
    static final String CLAIM = """
            WITH next AS (
                SELECT id FROM jobs
                WHERE queue = $1 AND state IN ('available', 'scheduled', 'retryable') AND run_at <= $2
                  AND NOT EXISTS (SELECT 1 FROM queues q WHERE q.name = $1 AND q.paused)
                ORDER BY priority DESC, run_at, id
                LIMIT $3
                FOR UPDATE SKIP LOCKED)
            UPDATE jobs j SET state = 'active', attempt = j.attempt + 1, started_at = $2, lease_owner = $4,
                   lease_renewed_at = $2,
                   enqueued_at = j.run_at, run_at = NULL,
                   execution_deadline = $2 + j.timeout_ms * interval '1 millisecond',
                   lease_expires_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
                                            $2 + j.timeout_ms * interval '1 millisecond')
            FROM next WHERE j.id = next.id
            RETURNING\s""" + JobRow.columns("j");

    /**
     * ACK for one or many jobs. The guard is the lease: the job must be active, and when the request names a
     * worker it must be the one holding the lease, so a late answer from a worker that lost its lease changes
     * nothing. The previous error is cleared (ojs-core 7.3).
     */
    static final String COMPLETE = """
            UPDATE jobs j SET state = 'completed', completed_at = $4, result = a.result::jsonb, error = NULL,
                   lease_expires_at = NULL, execution_deadline = NULL
            FROM unnest($1::uuid[], $2::text[], $3::text[]) AS a(id, result, worker)
            WHERE j.id = a.id AND j.state = 'active'
              AND (a.worker IS NULL OR j.lease_owner IS NULL OR j.lease_owner = a.worker)
            RETURNING j.id, j.type, j.queue, j.attempt, j.started_at""";

    /** Locks one job for a read-decide-write transition (FAIL, lease expiry). */
    static final String LOCK_JOB = "SELECT " + JobRow.COLUMNS + " FROM jobs WHERE id = $1 FOR UPDATE";

    /**
     * Writes the outcome of a failed attempt decided in the domain: retryable with its next run time,
     * discarded (and maybe dead-lettered), or handed back as available. The lease ends in every case.
     */
    static final String RECORD_FAILURE = """
            UPDATE jobs SET state = $2, run_at = $3, retry_delay_ms = $4, error = $5::text::jsonb, errors = $6::text::jsonb,
                   dead_letter = $7, snoozes = $8,
                   discarded_at = CASE WHEN $2 = 'discarded' THEN $9 ELSE discarded_at END,
                   completed_at = CASE WHEN $2 = 'discarded' THEN $9 ELSE completed_at END,
                   lease_expires_at = NULL, execution_deadline = NULL
            WHERE id = $1 AND state = 'active'
            RETURNING\s""" + JobRow.COLUMNS;

    /**
     * CANCEL: the old state comes from a locked read in the same statement so the answer can say what the job
     * was (previous_state), and the guard lists the states cancel may start from.
     */
    static final String CANCEL = """
            WITH old AS (SELECT id, state FROM jobs WHERE id = $1 FOR UPDATE)
            UPDATE jobs j SET state = 'cancelled', cancelled_at = $2, run_at = NULL, lease_expires_at = NULL,
                   execution_deadline = NULL
            FROM old WHERE j.id = old.id AND old.state = ANY($3)
            RETURNING old.state AS previous_state,\s""" + JobRow.columns("j");

    /**
     * SNOOZE (extension): the worker hands the job back to run at $3 without failing it; the attempt does not
     * count against max_attempts (snoozes records it) and the backoff is not lengthened. Same lease guard as ACK.
     */
    static final String SNOOZE = """
            UPDATE jobs SET state = CASE WHEN $3 <= $4 THEN 'available' ELSE 'scheduled' END,
                   run_at = greatest($3, $4), scheduled_at = CASE WHEN $3 <= $4 THEN scheduled_at ELSE $3 END,
                   snoozes = snoozes + 1, lease_expires_at = NULL, execution_deadline = NULL
            WHERE id = $1 AND state = 'active' AND ($2::text IS NULL OR lease_owner IS NULL OR lease_owner = $2)
            RETURNING\s""" + JobRow.COLUMNS;

    /** ACTIVATE: a pending job becomes available. */
    static final String ACTIVATE = "UPDATE jobs SET state = 'available', run_at = $2, enqueued_at = $2"
            + " WHERE id = $1 AND state = 'pending' RETURNING " + JobRow.COLUMNS;

    /**
     * The SET list of a new run of the same job (dead-letter retry, operator revive): attempts start over, the
     * error history stays (each entry carries its run), the current error and the previous outcome clear.
     * $%1$d is the instant the job becomes available.
     */
    static final String NEW_RUN_SET = """
            UPDATE jobs SET state = 'available', dead_letter = false, attempt = 0, snoozes = 0, run = run + 1,
                   error = NULL, result = NULL, run_at = $%1$d, enqueued_at = $%1$d, discarded_at = NULL,
                   completed_at = NULL, cancelled_at = NULL, started_at = NULL, retry_delay_ms = NULL""";

    static final String FIND = "SELECT " + JobRow.COLUMNS + " FROM jobs WHERE id = $1";

    static final String STATE_OF = "SELECT state, lease_owner FROM jobs WHERE id = $1";

    static final String LIST_QUEUES = "SELECT name, paused, paused_at, created_at FROM queues ORDER BY name";

    /** Empties every table: the conformance suite's reset hook. */
    static final String RESET = "TRUNCATE jobs, queues, workers";
}
