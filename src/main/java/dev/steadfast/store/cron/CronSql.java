package dev.steadfast.store.cron;

import dev.steadfast.store.HistorySql;
import dev.steadfast.store.JobNotifications;
import java.util.Map;

/**
 * Statements on cron schedules (cron_jobs) and their occurrences (cron_runs). Times are bound from the
 * application clock, never now(). Firing is safe with any number of instances: due schedules are locked with
 * SKIP LOCKED (one instance acts on a schedule at a time, the others pass over it), an occurrence is enqueued only
 * by the transaction whose insert of (cron_name, fire_at) into cron_runs succeeded, and next_fire_at only moves
 * from the value the decision was made for.
 */
final class CronSql {

    private CronSql() {
    }

    /** Every column of a schedule, the state of its last run and its latest occurrence (enqueued or skipped). */
    private static final String COLUMNS = """
            c.name, c.expression, c.timezone, c.overlap_policy, c.enabled, c.description, c.template::text AS template,
            c.next_fire_at, c.last_fire_at, c.last_job_id, c.run_count, c.created_at,
            (SELECT j.state FROM all_jobs j WHERE j.id = c.last_job_id) AS last_job_state,
            r.outcome AS last_outcome, r.fire_at AS last_outcome_at, r.reason AS last_reason,
            (SELECT count(*) FROM cron_runs h WHERE h.cron_name = c.name AND h.held) AS queued""";

    private static final String FROM = """
             FROM cron_jobs c
            LEFT JOIN LATERAL (SELECT outcome, fire_at, reason FROM cron_runs WHERE cron_name = c.name
                               ORDER BY fire_at DESC LIMIT 1) r ON true""";

    /** Registration: a taken name inserts nothing (the binding's 409), and the caller reads nothing back. */
    static final String INSERT = """
            INSERT INTO cron_jobs (name, expression, timezone, overlap_policy, enabled, description, template,
                                   next_fire_at, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7::text::jsonb, $8, $9)
            ON CONFLICT (name) DO NOTHING RETURNING name""";

    static final String FIND = "SELECT " + COLUMNS + FROM + " WHERE c.name = $1";

    /** The list, by name, with the total for pagination. */
    static final String LIST = "SELECT " + COLUMNS + ", count(*) OVER () AS total" + FROM
            + " ORDER BY c.name LIMIT $1 OFFSET $2";

    /** Unregister: jobs already enqueued are not affected (binding 13.3); the occurrences go with the schedule. */
    static final String DELETE = "DELETE FROM cron_jobs WHERE name = $1 RETURNING name";

    /**
     * Unregister's first half under the enqueue policy: the occurrences still held are released at once (pending ->
     * available), since nothing would release them once their schedule is gone. The schedule is locked first, so
     * the release pass of another instance is not acting on it meanwhile.
     */
    static final String RELEASE_ALL_HELD = """
            WITH s AS (SELECT name FROM cron_jobs WHERE name = $1 FOR UPDATE),
            a AS (
                UPDATE jobs j SET state = 'available', run_at = $2, enqueued_at = $2
                FROM cron_runs r JOIN s ON s.name = r.cron_name
                WHERE r.held AND j.id = r.job_id AND j.state = 'pending' RETURNING j.queue)
            """ + JobNotifications.announceQueuesOf("a");

    /** Pause ($2 false, $3 NULL) or resume ($2 true, $3 the first occurrence after now). */
    static final String SET_ENABLED = "UPDATE cron_jobs SET enabled = $2, next_fire_at = $3 WHERE name = $1"
            + " RETURNING name";

    /**
     * The due schedules, earliest first, locked: an instance that finds one locked by another passes over it, so
     * each schedule is acted on by one instance at a time. The previous run's state decides the overlap policy.
     */
    static final String LOCK_DUE = """
            SELECT c.name, c.expression, c.timezone, c.overlap_policy, c.template::text AS template, c.next_fire_at,
                   c.last_job_id, (SELECT j.state FROM all_jobs j WHERE j.id = c.last_job_id) AS last_job_state,
                   (SELECT count(*) FROM cron_runs h WHERE h.cron_name = c.name AND h.held)::int4 AS held
            FROM cron_jobs c WHERE c.enabled AND c.next_fire_at <= $1
            ORDER BY c.next_fire_at LIMIT $2 FOR UPDATE OF c SKIP LOCKED""";

    /** The exactly-once key: answers a row only for the transaction that recorded this occurrence first. */
    static final String RECORD_RUN = """
            INSERT INTO cron_runs (cron_name, fire_at, outcome, job_id, reason, created_at, held)
            VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (cron_name, fire_at) DO NOTHING RETURNING cron_name""";

    /** cancel_previous: the unfinished previous run is cancelled (a run that finished meanwhile is left alone). */
    static final String CANCEL_RUN = "WITH " + HistorySql.finish("",
            "j.id = $1 AND j.state IN ('available', 'scheduled', 'retryable', 'pending', 'active')", "",
            Map.of("state", "'cancelled'", "cancelled_at", "$2::timestamptz")) + "\nSELECT id FROM ins";

    /**
     * The enqueue policy's release pass: schedules with held occurrences, locked as LOCK_DUE locks them (firing and
     * releasing one schedule never interleave, and two instances never release the same occurrence), each with its
     * earliest held occurrence and the state of the run before it: the latest occurrence before that one that was
     * not held (NULL when its job is gone). Reads the held index and, per schedule, one step back through its
     * history by the primary key; never a schedule's whole history.
     */
    static final String LOCK_HELD = """
            SELECT c.name, h.fire_at, h.job_id,
                   (SELECT j.state FROM all_jobs j WHERE j.id = (
                        SELECT p.job_id FROM cron_runs p
                        WHERE p.cron_name = c.name AND p.fire_at < h.fire_at AND p.job_id IS NOT NULL AND NOT p.held
                        ORDER BY p.fire_at DESC LIMIT 1)) AS before_state
            FROM cron_jobs c
            CROSS JOIN LATERAL (SELECT r.fire_at, r.job_id FROM cron_runs r WHERE r.cron_name = c.name AND r.held
                                ORDER BY r.fire_at LIMIT 1) h
            WHERE c.overlap_policy = 'enqueue'
            ORDER BY c.name LIMIT $1 FOR UPDATE OF c SKIP LOCKED""";

    /**
     * Releases a held occurrence: no longer held, and its job pending -> available (a job that left pending
     * otherwise, activated by hand, cancelled or expired, is left as it is), announced on steadfast_jobs.
     */
    static final String RELEASE_HELD = """
            WITH r AS (
                UPDATE cron_runs SET held = false WHERE cron_name = $1 AND fire_at = $2 AND held RETURNING job_id),
            a AS (
                UPDATE jobs j SET state = 'available', run_at = $3, enqueued_at = $3
                FROM r WHERE j.id = r.job_id AND j.state = 'pending' RETURNING j.queue)
            SELECT (SELECT count(*) FROM r) AS released, (%s) AS notified""".formatted(
            JobNotifications.announceQueuesOf("a"));

    /**
     * Moves the schedule on, only from the occurrence it was decided for ($5). A schedule that never fires again
     * ($2 NULL) is paused. Skipped occurrences do not count as runs (run_count, last_fire_at: ojs-cron.md 2.2).
     */
    static final String ADVANCE = """
            UPDATE cron_jobs SET next_fire_at = $2::timestamptz, enabled = enabled AND $2::timestamptz IS NOT NULL,
                   last_fire_at = CASE WHEN $4::uuid IS NULL THEN last_fire_at ELSE $3 END,
                   last_job_id = coalesce($4, last_job_id),
                   run_count = run_count + CASE WHEN $4::uuid IS NULL THEN 0 ELSE 1 END
            WHERE name = $1 AND next_fire_at = $5""";

    /**
     * Run now from the console: locks the schedule (so it never interleaves with a firing of it, which locks it the
     * same way) and answers nothing when it is gone; the occurrence is then recorded under the instant it was asked
     * for, with its reason, like any other.
     */
    static final String LOCK_ONE = "SELECT name FROM cron_jobs WHERE name = $1 FOR UPDATE";

    /**
     * A run made by hand counts as a run (last_fire_at, last_job_id, run_count) but leaves next_fire_at alone:
     * the schedule's own occurrences go on as before, and the overlap policy sees this run as the previous one.
     */
    static final String RECORD_MANUAL_RUN = """
            UPDATE cron_jobs SET last_fire_at = $2, last_job_id = $3, run_count = run_count + 1 WHERE name = $1""";

    /**
     * A schedule's latest occurrences, newest first, through the primary key (cron_name, fire_at), each with the
     * state of its job now (looked up by id in the live table and the history partitions; NULL when pruned).
     */
    static final String RECENT_RUNS = """
            SELECT r.fire_at, r.outcome, r.job_id, r.reason, r.held,
                   (SELECT j.state FROM all_jobs j WHERE j.id = r.job_id) AS job_state
            FROM cron_runs r WHERE r.cron_name = $1 ORDER BY r.fire_at DESC LIMIT $2""";
}
