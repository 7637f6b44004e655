package dev.steadfast.store;

/**
 * Statements of the periodic maintenance tasks. Every one is safe when several instances run it at once: rows
 * are taken with FOR UPDATE SKIP LOCKED (two reapers never decide the same job) or changed by set-based,
 * idempotent updates guarded by state, and each works in bounded batches.
 */
final class MaintenanceSql {

    private MaintenanceSql() {
    }

    /** Lease expiry: active jobs whose lease ran out, oldest first, locked so no other instance takes them. */
    static final String LOCK_EXPIRED_LEASES = "SELECT " + JobRow.leanColumns("")
            + " FROM jobs WHERE state = 'active' AND lease_expires_at <= $1"
            + " ORDER BY lease_expires_at LIMIT $2 FOR UPDATE SKIP LOCKED";

    /**
     * Retry and schedule promotion: due scheduled/retryable jobs become available, enqueued_at recording the
     * instant they became due, so INFO and the console show the true state. Fetch claims due jobs directly, so
     * this only keeps the visible state honest between claims, and announces the queues on steadfast_jobs so
     * long-polling fetches on every instance wake up (a job another instance failed and that came due).
     */
    static final String PROMOTE_DUE = """
            WITH due AS (
                SELECT id FROM jobs WHERE state IN ('scheduled', 'retryable') AND run_at <= $1
                ORDER BY run_at LIMIT $2 FOR UPDATE SKIP LOCKED),
            promoted AS (
                UPDATE jobs j SET state = 'available', enqueued_at = j.run_at
                FROM due WHERE j.id = due.id
                RETURNING j.id, j.type, j.queue, j.priority)
            SELECT p.*, (SELECT count(pg_notify('steadfast_jobs', q.queue))
                         FROM (SELECT DISTINCT queue FROM promoted) q) AS notified
            FROM promoted p""";

    /**
     * Expiry: jobs not started yet whose expires_at has passed, earliest first, locked so no other instance (and
     * no claim) takes them; through jobs_expiry_idx, which only jobs with a deadline enter.
     */
    static final String LOCK_EXPIRED_JOBS = "SELECT " + JobRow.leanColumns("")
            + " FROM jobs WHERE expires_at <= $1 AND state IN ('available', 'scheduled', 'retryable', 'pending')"
            + " ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED";

    /**
     * Discards expired jobs with the recorded reason as their error (appended to the history, newest $4 kept).
     * completed_at stays unset: the job never ran to an outcome (the conformance suite checks it is absent).
     */
    static final String DISCARD_EXPIRED = """
            UPDATE jobs j SET state = 'discarded', discarded_at = $3, run_at = NULL, error = e.entry::jsonb,
                   errors = jsonb_path_query_array(j.errors || e.entry::jsonb, '$[last - $k to last]',
                                                   jsonb_build_object('k', $4::int - 1))
            FROM unnest($1::uuid[], $2::text[]) AS e(id, entry)
            WHERE j.id = e.id AND j.state IN ('available', 'scheduled', 'retryable', 'pending')
            RETURNING\s""" + JobRow.leanColumns("j");

    /** Pruning: finished jobs past retention; dead-lettered jobs are never pruned here. */
    static final String PRUNE_FINISHED = """
            WITH old AS (
                SELECT id FROM jobs
                WHERE state IN ('completed', 'discarded', 'cancelled') AND NOT dead_letter
                  AND coalesce(completed_at, cancelled_at, discarded_at) < $1
                LIMIT $2 FOR UPDATE SKIP LOCKED)
            DELETE FROM jobs j USING old WHERE j.id = old.id""";

    /** Dead letters past an operator-configured maximum age (off unless configured). */
    static final String PRUNE_DEAD_LETTERS = """
            WITH old AS (
                SELECT id FROM jobs WHERE dead_letter AND discarded_at < $1
                LIMIT $2 FOR UPDATE SKIP LOCKED)
            DELETE FROM jobs j USING old WHERE j.id = old.id""";

    /** Workers not heard from since the cut-off are forgotten (their jobs' leases still govern the jobs). */
    static final String FORGET_WORKERS = "DELETE FROM workers WHERE last_seen < $1";
}
