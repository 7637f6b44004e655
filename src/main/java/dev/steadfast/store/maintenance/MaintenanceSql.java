package dev.steadfast.store.maintenance;

import dev.steadfast.store.HistorySql;
import dev.steadfast.store.JobNotifications;
import dev.steadfast.store.JobRows;
import java.util.Map;

/**
 * Statements of the periodic maintenance tasks. Every one is safe when several instances run it at once: rows
 * are taken with FOR UPDATE SKIP LOCKED (two reapers never decide the same job) or changed by set-based,
 * idempotent updates guarded by state, and each works in bounded batches.
 */
public final class MaintenanceSql {

    private MaintenanceSql() {
    }

    /**
     * Lease expiry: active jobs due a look by $1 and after $3 (lease_check_at, through jobs_lease_check_idx;
     * domain.SweepFloor: the epoch for a sweep from the head), oldest first, and active jobs without a check time
     * (jobs_lease_unchecked_idx: claimed by an instance of the version before V36), locked so no other instance takes
     * them. Each comes back with {@code lease_ran_out}: its lease ended by $1 (the caller fails the attempt); a lease
     * a heartbeat extended gets its check time moved to its end in the same statement (the row of that job is
     * returned too, so a batch counts every job it locked). A heartbeat never writes lease_check_at, which keeps it a
     * HOT update; this is the one non-HOT write a heartbeating job pays, once a lease period.
     */
    public static final String LOCK_EXPIRED_LEASES = """
            WITH due AS (
                SELECT * FROM (SELECT id FROM jobs WHERE state = 'active' AND lease_check_at <= $1 AND lease_check_at > $3
                               ORDER BY lease_check_at LIMIT $2 FOR UPDATE SKIP LOCKED) AS checked
                UNION ALL
                SELECT * FROM (SELECT id FROM jobs
                               WHERE state = 'active' AND lease_check_at IS NULL AND lease_expires_at IS NOT NULL
                               LIMIT $2 FOR UPDATE SKIP LOCKED) AS unchecked),
            rechecked AS (
                UPDATE jobs j SET lease_check_at = j.lease_expires_at FROM due
                WHERE j.id = due.id AND j.lease_expires_at > $1)
            SELECT %s, j.lease_expires_at <= $1 AS lease_ran_out FROM jobs j JOIN due ON due.id = j.id""".formatted(
            JobRows.leanColumns("j"));

    /**
     * Retry and schedule promotion: due scheduled/retryable jobs become available, enqueued_at recording the
     * instant they became due, so INFO and the console show the true state. Fetch claims due jobs directly, so
     * this only keeps the visible state honest between claims, and announces the queues on steadfast_jobs so
     * long-polling fetches on every instance wake up (a job another instance failed and that came due). Only jobs due
     * after $3 (domain.SweepFloor; the epoch for a run from the head of jobs_due_idx).
     */
    public static final String PROMOTE_DUE = """
            WITH due AS (
                SELECT id FROM jobs WHERE state IN ('scheduled', 'retryable') AND run_at <= $1 AND run_at > $3
                ORDER BY run_at LIMIT $2 FOR UPDATE SKIP LOCKED),
            promoted AS (
                UPDATE jobs j SET state = 'available', enqueued_at = j.run_at
                FROM due WHERE j.id = due.id
                RETURNING j.id, j.type, j.queue, j.priority)
            SELECT p.*, (%s) AS notified
            FROM promoted p""".formatted(JobNotifications.announceQueuesOf("promoted"));

    /**
     * Expiry: jobs not started yet whose expires_at has passed, earliest first, locked so no other instance (and
     * no claim) takes them; through jobs_expiry_idx, which only jobs with a deadline enter.
     */
    public static final String LOCK_EXPIRED_JOBS = "SELECT " + JobRows.leanColumns("")
            + " FROM jobs WHERE expires_at <= $1 AND state IN ('available', 'scheduled', 'retryable', 'pending')"
            + " ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED";

    /**
     * Expiry of one job ($3) that a read found waiting past its expires_at at $1 (INFO: domain.JobExpiry.due), locked
     * like LOCK_EXPIRED_JOBS; a job the reaper or a claim is discarding at that moment is waited for, so the read
     * then finds it in the history.
     */
    public static final String LOCK_EXPIRED_JOB = "SELECT " + JobRows.leanColumns("")
            + " FROM jobs WHERE id = $3 AND expires_at <= $1 AND state IN ('available', 'scheduled', 'retryable', 'pending')"
            + " LIMIT $2 FOR UPDATE";

    /**
     * Discards expired jobs with the recorded reason as their error (appended to the history, newest $4 kept).
     * completed_at stays unset: the job never ran to an outcome (the conformance suite checks it is absent). The
     * job moves to the history.
     */
    public static final String DISCARD_EXPIRED = "WITH " + HistorySql.finish("USING unnest($1::uuid[], $2::text[]) AS e(id, entry)",
            "j.id = e.id AND j.state IN ('available', 'scheduled', 'retryable', 'pending')", ", e.entry AS x_entry",
            Map.of("state", "'discarded'", "discarded_at", "$3::timestamptz", "error", "fin.x_entry::jsonb",
                    "errors", "jsonb_path_query_array(fin.errors || fin.x_entry::jsonb, '$[last - $k to last]',"
                            + " jsonb_build_object('k', $4::int - 1))"))
            + "\nSELECT " + JobRows.leanColumns("ins") + " FROM ins";

    /**
     * Pruning, row by row, of finished jobs past retention that sit in the history's default partition (their day
     * had no partition when they finished); every other finished job goes with its day's partition (DROP_PARTITION).
     */
    static final String PRUNE_FINISHED = """
            WITH old AS (
                SELECT id FROM job_history_done_default WHERE finished_at < $1
                LIMIT $2 FOR UPDATE SKIP LOCKED)
            DELETE FROM job_history_done_default h USING old WHERE h.id = old.id""";

    /** Dead letters past an operator-configured maximum age (off unless configured). */
    static final String PRUNE_DEAD_LETTERS = """
            WITH old AS (
                SELECT id FROM job_history_dead WHERE discarded_at < $1
                LIMIT $2 FOR UPDATE SKIP LOCKED)
            DELETE FROM job_history_dead h USING old WHERE h.id = old.id""";

    /** Creates the history's day partitions from $1 for $2 more days (V18's function; a no-op for existing ones). */
    static final String PREPARE_PARTITIONS = """
            SELECT count(*) FILTER (WHERE steadfast_history_partition(d::date))
            FROM generate_series($1::date::timestamp, ($1::date + $2::int)::timestamp, interval '1 day') d""";

    /** The history's day partitions, by name (job_history_done_YYYYMMDD: the UTC day they hold). */
    static final String LIST_PARTITIONS = """
            SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'job_history_done'::regclass AND c.relname ~ '^job_history_done_[0-9]{8}$'
            ORDER BY c.relname""";

    /**
     * Creating or dropping a partition takes an ACCESS EXCLUSIVE lock on its parent for a moment; a lock that cannot
     * be had within this time (a long console query on the history) gives up and the next run tries again, so ACKs
     * never queue behind it for longer.
     */
    static final String PARTITION_LOCK_TIMEOUT = "SET LOCAL lock_timeout = '1s'";

    /** Serialises the instances' partition work (same key as steadfast_history_partition). */
    static final String LOCK_PARTITIONS = "SELECT pg_advisory_xact_lock(hashtext('steadfast_history_partitions'))";

    /**
     * The rows of an old day's partition ({@code quoted}: its name, quoted), counted before the pruner drops it; run
     * under {@link #PARTITION_LOCK_TIMEOUT} and {@link #LOCK_PARTITIONS} (RenderedSqlTest renders it).
     */
    static String countPartition(String quoted) {
        return "SELECT count(*) FROM " + quoted;
    }

    /** Drops an old day's partition ({@code quoted}: its name, quoted), as {@link #countPartition}. */
    static String dropPartition(String quoted) {
        return "DROP TABLE " + quoted;
    }

    /** Progress rows whose job is gone (deleted or pruned), a bounded batch. */
    static final String PRUNE_ORPHAN_PROGRESS = """
            DELETE FROM job_progress p WHERE p.job_id IN (
                SELECT q.job_id FROM job_progress q
                WHERE NOT EXISTS (SELECT 1 FROM all_jobs j WHERE j.id = q.job_id) LIMIT $1)""";

    /**
     * Checkpoints nobody can see any more, a bounded batch: their job finished (completed or cancelled: ojs-durable-
     * execution 5.2) or is gone. A discarded job keeps its checkpoint (hidden) for a dead-letter retry, which shows it
     * again (6.3); it goes once the job is pruned. Reads only job_checkpoints, which holds the jobs that checkpointed,
     * with a primary-key probe of jobs and of the history per row.
     */
    static final String PRUNE_FINISHED_CHECKPOINTS = """
            DELETE FROM job_checkpoints c WHERE c.job_id IN (
                SELECT q.job_id FROM job_checkpoints q
                WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = q.job_id)
                  AND NOT EXISTS (SELECT 1 FROM job_history h WHERE h.id = q.job_id AND h.state = 'discarded')
                LIMIT $1)""";

    /** Workers not heard from since the cut-off are forgotten (their jobs' leases still govern the jobs). */
    static final String FORGET_WORKERS = "DELETE FROM workers WHERE last_seen < $1";
}
