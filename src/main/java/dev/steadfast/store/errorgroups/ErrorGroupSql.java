package dev.steadfast.store.errorgroups;

import dev.steadfast.store.HistorySql;
import dev.steadfast.store.JobQueryStore;
import java.util.Map;

/**
 * The named statements of error groups (V25). The groups themselves are written by the FAIL statement
 * (store.JobSql.RECORD_FAILURES); these read them, list a group's jobs through the partial (error_group, id)
 * indexes of both tables, and act on a group in bounded batches (the caller loops until a batch comes back short),
 * each batch chosen {@code FOR UPDATE SKIP LOCKED} so it never waits on a worker or another operator, and taken once
 * in a materialized CTE (not inline in {@code IN (...)}, which the planner may rerun per row: see
 * store.JobBulkStore's LIVE_BATCH_CTE).
 */
final class ErrorGroupSql {

    private ErrorGroupSql() {
    }

    static final String GROUP_COLUMNS = "id, error_type, message, failures, first_seen, last_seen, queues, types";

    /** The groups, the most recently failing first, after the (last_seen, id) cursor ($2, $3; NULL: first page). */
    static final String LIST_GROUPS = "SELECT " + GROUP_COLUMNS + " FROM error_groups"
            + " WHERE $2::timestamptz IS NULL OR (last_seen, id) < ($2, $3)"
            + " ORDER BY last_seen DESC, id DESC LIMIT $1";

    static final String FIND_GROUP = "SELECT " + GROUP_COLUMNS + " FROM error_groups WHERE id = $1";

    /** The hourly counts of the groups $1 from the hour $2 on (the sparkline), through the primary key. */
    static final String HOURS = "SELECT group_id, hour, failures FROM error_group_hours"
            + " WHERE group_id = ANY($1::int8[]) AND hour >= $2 ORDER BY group_id, hour";

    /**
     * A page of the group's jobs, newest id first, strictly before the id $2: two bounded parts, one per table,
     * each an index scan of its (error_group, id) index (the history's per partition), merged and cut again.
     */
    static final String GROUP_JOBS = "(SELECT " + JobQueryStore.SUMMARY_COLUMNS + " FROM jobs"
            + " WHERE error_group = $1 AND id < $2 ORDER BY id DESC LIMIT $3)"
            + " UNION ALL (SELECT " + JobQueryStore.SUMMARY_COLUMNS + " FROM job_history"
            + " WHERE error_group = $1 AND id < $2 ORDER BY id DESC LIMIT $3)"
            + " ORDER BY id DESC LIMIT $3";

    /** How many of the group's jobs are in each state (dead letters apart): what an action would touch. */
    static final String COUNT_BY_STATE = "SELECT state, dead_letter, count(*) AS n FROM all_jobs"
            + " WHERE error_group = $1 GROUP BY state, dead_letter";

    /**
     * RETRY_NOW for a batch of the group's live jobs in the states $2 (JobStateMachine.sourceNames(RETRY_NOW)):
     * available at $3, as the single-job retry (JobEntity.makeAvailable) does.
     */
    static final String RETRY_NOW_BATCH = """
            UPDATE jobs SET state = 'available', run_at = $3, enqueued_at = $3
            WHERE id IN (SELECT id FROM jobs WHERE error_group = $1 AND state = ANY($2) LIMIT $4
                         FOR UPDATE SKIP LOCKED) AND state = ANY($2)
            RETURNING id""";

    /**
     * A batch of the group's finished jobs that a new run may start from: discarded, dead-lettered or not as $2
     * says (HistorySql.START_NEW_RUNS then moves them, guarded again on state and flag).
     */
    static final String DISCARDED_BATCH = """
            SELECT id FROM job_history WHERE error_group = $1 AND dead_letter = $2 AND state = 'discarded' LIMIT $3""";

    /**
     * DISCARD for a batch of the group's live jobs in the states $2 (JobStateMachine.sourceNames(DISCARD)): they
     * move to the history as discarded at $3 (not dead letters). Workflow steps are left alone: a step finishes
     * through its workflow's transaction, which the advancer accounts for.
     */
    static final String DISCARD_BATCH = "WITH batch AS MATERIALIZED (SELECT id FROM jobs WHERE error_group = $1"
            + " AND state = ANY($2) AND workflow_id IS NULL LIMIT $4 FOR UPDATE SKIP LOCKED),\n"
            + HistorySql.finish("", "j.id IN (SELECT id FROM batch) AND j.state = ANY($2)", "",
            Map.of("state", "'discarded'", "discarded_at", "$3::timestamptz", "dead_letter", "false"))
            + "\nSELECT id FROM ins";

    /** Deletes a batch of the group's finished jobs that failed for good (discarded, dead letters included). */
    static final String DELETE_DISCARDED_BATCH = """
            WITH batch AS MATERIALIZED (SELECT id FROM job_history WHERE error_group = $1
                AND state = 'discarded' LIMIT $2 FOR UPDATE SKIP LOCKED)
            DELETE FROM job_history WHERE id IN (SELECT id FROM batch) AND state = 'discarded'
            RETURNING id""";

    /** Deletes a batch of the group's live jobs waiting for their next attempt (retryable). */
    static final String DELETE_RETRYABLE_BATCH = """
            WITH batch AS MATERIALIZED (SELECT id FROM jobs WHERE error_group = $1 AND state = 'retryable'
                LIMIT $2 FOR UPDATE SKIP LOCKED)
            DELETE FROM jobs WHERE id IN (SELECT id FROM batch) AND state = 'retryable'
            RETURNING id""";

    /** Forgets a group: its row and its hourly counts (after its jobs were deleted). */
    static final String DELETE_GROUP = "WITH h AS (DELETE FROM error_group_hours WHERE group_id = $1)"
            + " DELETE FROM error_groups WHERE id = $1";

    /** The pruner: hourly counts older than $1 (the sparkline shows the last day). */
    static final String PRUNE_HOURS = """
            DELETE FROM error_group_hours WHERE ctid = ANY(ARRAY(
                SELECT ctid FROM error_group_hours WHERE hour < $1 LIMIT $2))""";

    /** The pruner: groups whose last failure is older than $1 and that no job carries any more. */
    static final String PRUNE_GROUPS = """
            WITH gone AS (
                DELETE FROM error_groups g WHERE g.id = ANY(ARRAY(
                    SELECT id FROM error_groups e WHERE e.last_seen < $1
                      AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.error_group = e.id)
                      AND NOT EXISTS (SELECT 1 FROM job_history h WHERE h.error_group = e.id)
                    LIMIT $2))
                RETURNING g.id),
            h AS (DELETE FROM error_group_hours WHERE group_id IN (SELECT id FROM gone))
            SELECT count(*) AS n FROM gone""";
}
