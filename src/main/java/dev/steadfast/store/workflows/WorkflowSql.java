package dev.steadfast.store.workflows;

import dev.steadfast.store.HistorySql;
import dev.steadfast.store.JobNotifications;
import java.util.Map;

/**
 * The statements of workflows (ojs-workflows.md). Every change to a workflow runs in one transaction that first
 * locks the row of its tree's root (LOCK_ROOT; a workflow without nesting is its own root): whoever holds it sees
 * every member of every workflow of the tree as of one instant and records each finished member's outcome at most
 * once, so concurrent ACKs and FAILs on any number of instances advance it exactly once per finished job. Lock
 * order is always the root's workflow row, then job rows; the rows of nested workflows are only written under
 * their root's lock.
 */
final class WorkflowSql {

    private WorkflowSql() {
    }

    /** A workflow and the workflows nested in it, in one statement (the parent_id check runs at its end). */
    static final String INSERT_WORKFLOWS = """
            INSERT INTO workflows (id, type, name, state, created_at, parent_id, root_id)
            SELECT u.id, u.type, u.name, u.state, $5, u.parent_id, u.root_id
            FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $6::uuid[], $7::uuid[])
                 AS u(id, type, name, state, parent_id, root_id)""";

    /**
     * Marks the new jobs as members of their (innermost) workflow (the one write the batched ACK/FAIL statements
     * test for).
     */
    static final String MARK_MEMBERS = """
            UPDATE jobs j SET workflow_id = m.wf FROM unnest($1::uuid[], $2::uuid[]) AS m(id, wf) WHERE j.id = m.id""";

    /** The members of every new workflow; a nested workflow is a member of its parent with child = true. */
    static final String INSERT_MEMBERS = """
            INSERT INTO workflow_jobs (job_id, workflow_id, role, position, delay_ms, child, step_key)
            SELECT u.id, u.wf, u.role, u.pos, u.delay_ms, u.child, u.step_key
            FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::int4[], $5::int8[], $6::bool[], $7::text[])
                 AS u(id, wf, role, pos, delay_ms, child, step_key)""";

    /**
     * Locks the root of the tree workflow $1 belongs to, and reads the root as READ does. In READ COMMITTED a row
     * locked after a wait is returned as its latest version, but the joined row {@code w} may predate the wait: when
     * $1 is the root (a workflow not nested, the common case) what READ would read comes with the lock, one round
     * trip less; for a nested workflow READ follows.
     */
    static final String LOCK_ROOT = """
            SELECT r.id, r.type, r.state, r.parent_id
            FROM workflows w JOIN workflows r ON r.id = coalesce(w.root_id, w.id) WHERE w.id = $1
            FOR UPDATE OF r""";

    /** The advancer's lock: a tree another transaction is advancing is skipped (that one accounts for it). */
    static final String LOCK_ROOT_SKIP = LOCK_ROOT + " SKIP LOCKED";

    /** A workflow as its root's lock holder sees it. */
    static final String READ = "SELECT type, state, parent_id FROM workflows WHERE id = $1";

    /**
     * The members and their jobs' states (a nested workflow's own state for a child); read after LOCK_ROOT, so in
     * READ COMMITTED it sees every committed change.
     */
    static final String MEMBERS = """
            SELECT wj.job_id, wj.role, wj.position, wj.outcome, wj.child, j.state, c.state AS child_state
            FROM workflow_jobs wj LEFT JOIN all_jobs j ON j.id = wj.job_id AND NOT wj.child
                 LEFT JOIN workflows c ON c.id = wj.job_id AND wj.child
            WHERE wj.workflow_id = $1""";

    /** A nested workflow's turn has come (pending -> running); its first members are activated next. */
    static final String START = "UPDATE workflows SET state = 'running' WHERE id = $1 AND state = 'pending' RETURNING type";

    /**
     * Cancels the workflows $1 and every workflow nested in them (pending or running -> cancelled), their jobs in
     * the states $3 (what cancel may start from, less active: an active job may finish), and records those
     * members' outcome. The outcome of $1 themselves in their parent is the parent's decision to record. The
     * cancelled jobs move to the history (HistorySql.finish: fin, ins).
     */
    static final String CANCEL_TREES = """
            WITH RECURSIVE sub AS (
                SELECT id FROM workflows WHERE id = ANY($1::uuid[])
                UNION ALL SELECT w.id FROM workflows w JOIN sub ON w.parent_id = sub.id),
            wf AS (
                UPDATE workflows SET state = 'cancelled', cancelled_at = $2, completed_at = NULL
                WHERE id IN (SELECT id FROM sub) AND state IN ('pending', 'running') RETURNING id),
            """ + HistorySql.finish("USING workflow_jobs wj", """
                wj.workflow_id IN (SELECT id FROM sub) AND NOT wj.child AND j.id = wj.job_id
                  AND j.state = ANY($3::text[])""", "",
                    Map.of("state", "'cancelled'", "cancelled_at", "$2::timestamptz")) + """

            UPDATE workflow_jobs SET outcome = 'cancelled'
            WHERE workflow_id IN (SELECT id FROM sub) AND outcome IS NULL
              AND (job_id IN (SELECT id FROM ins) OR (child AND job_id IN (SELECT id FROM wf)))""";

    /**
     * One decision's writes in one statement (one round trip): the members' outcomes $4/$5, each written once (the
     * guard makes a repeat a no-op), and workflow $1's new state $2 at $3 ($2 null: the state stays).
     */
    static final String RECORD_DECISION = """
            WITH o AS (
                UPDATE workflow_jobs w SET outcome = o.outcome FROM unnest($4::uuid[], $5::text[]) AS o(id, outcome)
                WHERE w.job_id = o.id AND w.outcome IS NULL)
            UPDATE workflows SET state = $2,
                   completed_at = CASE WHEN $2 IN ('completed', 'failed') THEN $3::timestamptz END,
                   cancelled_at = CASE WHEN $2 = 'cancelled' THEN $3::timestamptz END
            WHERE id = $1 AND $2::text IS NOT NULL""";

    /**
     * Enqueues a waiting member (the ACTIVATE transition) with the results of the jobs $2, in that order, as
     * parent_results (ojs-workflows.md 7: an array indexed like the steps; a nested workflow among $2 gives the
     * array of its steps' results, ojs-workflows.md 7.3). It is due at the later of $3 plus
     * its delay (workflow_jobs.delay_ms: options.delay counts from now, not from the workflow's creation) and its
     * own scheduled_at: pending -> available when that is now (and every instance's long-polls hear of the
     * queue), pending -> scheduled otherwise, which the claim takes directly once run_at has passed.
     */
    static final String ACTIVATE = """
            WITH d AS (
                SELECT greatest($3::timestamptz + coalesce(wj.delay_ms, 0) * interval '1 millisecond',
                                j.scheduled_at) AS due
                FROM jobs j LEFT JOIN workflow_jobs wj ON wj.job_id = j.id WHERE j.id = $1),
            a AS (
                UPDATE jobs j SET state = CASE WHEN d.due > $3 THEN 'scheduled' ELSE 'available' END,
                       run_at = d.due, enqueued_at = $3,
                       extensions = coalesce(extensions, '{}'::jsonb) || jsonb_build_object('parent_results',
                           (SELECT coalesce(jsonb_agg(coalesce(p.result, n.results) ORDER BY o.ord), '[]'::jsonb)
                            FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, ord) LEFT JOIN all_jobs p ON p.id = o.id
                                 LEFT JOIN LATERAL (
                                     SELECT jsonb_agg(nj.result ORDER BY nm.position) AS results
                                     FROM workflow_jobs nm LEFT JOIN all_jobs nj ON nj.id = nm.job_id
                                     WHERE p.id IS NULL AND nm.workflow_id = o.id AND nm.role = 'step') n ON true))
                FROM d WHERE j.id = $1 AND j.state = 'pending' RETURNING j.queue, j.state, j.run_at)
            SELECT queue, state, run_at,
                   CASE WHEN state = 'available' THEN pg_notify('%s', queue)::text END AS notified
            FROM a""".formatted(JobNotifications.CHANNEL);

    /** Cancels waiting members the workflow will never run (pending -> cancelled, into the history). */
    static final String CANCEL_WAITING = "WITH " + HistorySql.finish("", "j.id = ANY($1::uuid[]) AND j.state = 'pending'",
            "", Map.of("state", "'cancelled'", "cancelled_at", "$2::timestamptz")) + "\nSELECT count(*) FROM ins";

    static final String FIND = """
            SELECT id, type, name, state, created_at, completed_at, cancelled_at, parent_id
            FROM workflows WHERE id = $1""";

    /**
     * Records when a workflow's first job began executing (ojs-workflows.md 3.3 started_at), in the transaction of
     * each FAIL of a member ($2) of $1 (an ACK's statement does it itself: JobSql.COMPLETE_STEP): the earliest start
     * seen. A job's started_at is its latest attempt's,
     * so recording it at every ACK and FAIL (a retryable failure included) keeps a first attempt's start.
     */
    static final String NOTE_STARTED = """
            UPDATE workflows w SET started_at = j.started_at FROM all_jobs j
            WHERE w.id = $1 AND j.id = $2 AND j.started_at IS NOT NULL
              AND (w.started_at IS NULL OR j.started_at < w.started_at)""";

    /**
     * Every job of workflow $1's tree (itself and the workflows nested in it, at any depth), for its metadata
     * counters and error report (domain.workflow.WorkflowReport): member, innermost workflow, job state, attempt,
     * start and last error; with the earliest start recorded on the tree's workflows. Nested workflows are found
     * through workflows_parent_idx; at most 3 levels exist.
     */
    static final String FIND_TREE_JOBS = """
            WITH RECURSIVE tree AS (
                SELECT id, started_at, 0 AS depth FROM workflows WHERE id = $1
                UNION ALL SELECT w.id, w.started_at, t.depth + 1 FROM workflows w JOIN tree t ON w.parent_id = t.id)
            SELECT wj.job_id, wj.workflow_id, wj.role, wj.position, wj.outcome, j.state, j.attempt, j.started_at,
                   j.error->>'code' AS error_code, j.error->>'message' AS error_message, j.error::text AS error,
                   (SELECT min(started_at) FROM tree) AS recorded_start
            FROM tree t JOIN workflow_jobs wj ON wj.workflow_id = t.id AND NOT wj.child
                 LEFT JOIN all_jobs j ON j.id = wj.job_id
            ORDER BY t.depth, wj.workflow_id, wj.role <> 'step', wj.role, wj.position""";

    static final String FIND_MEMBERS = """
            SELECT wj.job_id, wj.role, wj.position, wj.outcome, wj.child, j.state, j.type, j.queue, j.attempt,
                   j.result::text AS result, j.error::text AS error, j.started_at, j.completed_at,
                   c.type AS child_type, c.state AS child_state, c.completed_at AS child_completed_at, wj.step_key
            FROM workflow_jobs wj LEFT JOIN all_jobs j ON j.id = wj.job_id AND NOT wj.child
                 LEFT JOIN workflows c ON c.id = wj.job_id AND wj.child
            WHERE wj.workflow_id = $1
            ORDER BY wj.role <> 'step', wj.role, wj.position""";

    /**
     * Workflows with a finished member job they have not accounted for (lease reaper, expiry, single-job cancel).
     * A nested workflow's outcome is recorded in its parent in the transaction that finished it.
     */
    static final String UNACCOUNTED = """
            SELECT DISTINCT wj.workflow_id FROM workflow_jobs wj JOIN job_history j ON j.id = wj.job_id
            WHERE wj.outcome IS NULL AND NOT wj.child
            LIMIT $1""";

    /**
     * Pruning: finished top-level workflows past retention whose jobs, nested workflows' included, are all
     * finished or gone (an active member of a cancelled workflow may still finish and be accounted for); nested
     * workflows go with their root (parent_id ON DELETE CASCADE). SKIP LOCKED leaves a workflow someone is
     * advancing, so instances pruning at once take different rows; ON DELETE CASCADE removes workflow_jobs.
     * jobs.workflow_id is left as it is (no foreign key, V12): a member job kept longer (a dead letter, a revived
     * job) still names its workflow, and its ACK/FAIL, finding no workflow row, is written as a plain job's.
     */
    static final String PRUNE_FINISHED = """
            WITH old AS (
                SELECT w.id FROM workflows w
                WHERE w.state IN ('completed', 'failed', 'cancelled') AND coalesce(w.completed_at, w.cancelled_at) < $1
                  AND w.parent_id IS NULL
                  AND NOT EXISTS (SELECT 1 FROM workflow_jobs wj JOIN jobs j ON j.id = wj.job_id
                                  WHERE wj.workflow_id = w.id
                                     OR wj.workflow_id IN (SELECT t.id FROM workflows t WHERE t.root_id = w.id))
                LIMIT $2 FOR UPDATE OF w SKIP LOCKED)
            DELETE FROM workflows w USING old WHERE w.id = old.id""";

    /** The workflow of a job, for the console's job page. */
    static final String OF_JOB = "SELECT workflow_id FROM workflow_jobs WHERE job_id = $1";
}
