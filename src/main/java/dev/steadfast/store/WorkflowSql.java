package dev.steadfast.store;

/**
 * The statements of workflows (ojs-workflows.md). Every change to a workflow runs in one transaction that first
 * locks its row (LOCK): whoever holds it sees every member as of one instant and records each finished member's
 * outcome at most once, so concurrent ACKs and FAILs on any number of instances advance it exactly once per
 * finished job. Lock order is always the workflow row, then job rows.
 */
final class WorkflowSql {

    private WorkflowSql() {
    }

    static final String INSERT_WORKFLOW = """
            INSERT INTO workflows (id, type, name, state, created_at) VALUES ($1, $2, $3, 'running', $4)""";

    /** Marks the new jobs as workflow members (the one write the batched ACK/FAIL statements test for). */
    static final String MARK_MEMBERS = "UPDATE jobs SET workflow_id = $1 WHERE id = ANY($2::uuid[])";

    static final String INSERT_MEMBERS = """
            INSERT INTO workflow_jobs (job_id, workflow_id, role, position, delay_ms)
            SELECT u.id, $1, u.role, u.pos, u.delay_ms
            FROM unnest($2::uuid[], $3::text[], $4::int4[], $5::int8[]) AS u(id, role, pos, delay_ms)""";

    /** The workflow a job belongs to, if any; no lock (the workflow row is locked next). */
    static final String WORKFLOW_OF = "SELECT workflow_id FROM jobs WHERE id = $1";

    static final String LOCK = "SELECT type, state FROM workflows WHERE id = $1 FOR UPDATE";

    /** The advancer's lock: a workflow another transaction is advancing is skipped (that one accounts for it). */
    static final String LOCK_SKIP = "SELECT type, state FROM workflows WHERE id = $1 FOR UPDATE SKIP LOCKED";

    /** The members and their jobs' states; read after LOCK, so in READ COMMITTED it sees every committed change. */
    static final String MEMBERS = """
            SELECT wj.job_id, wj.role, wj.position, wj.outcome, j.state
            FROM workflow_jobs wj LEFT JOIN jobs j ON j.id = wj.job_id WHERE wj.workflow_id = $1""";

    /** Records outcomes; a member's outcome is written once (the guard makes a repeat a no-op). */
    static final String RECORD_OUTCOMES = """
            UPDATE workflow_jobs w SET outcome = o.outcome FROM unnest($1::uuid[], $2::text[]) AS o(id, outcome)
            WHERE w.job_id = o.id AND w.outcome IS NULL""";

    /**
     * Enqueues a waiting member (the ACTIVATE transition) with the results of the jobs $2, in that order, as
     * parent_results (ojs-workflows.md 7: an array indexed like the steps). It is due at the later of $3 plus
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
                           (SELECT coalesce(jsonb_agg(p.result ORDER BY o.ord), '[]'::jsonb)
                            FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, ord) LEFT JOIN jobs p ON p.id = o.id))
                FROM d WHERE j.id = $1 AND j.state = 'pending' RETURNING j.queue, j.state, j.run_at)
            SELECT queue, state, run_at,
                   CASE WHEN state = 'available' THEN pg_notify('steadfast_jobs', queue)::text END AS notified
            FROM a""";

    /** Cancels waiting members the workflow will never run (pending -> cancelled). */
    static final String CANCEL_WAITING = """
            UPDATE jobs SET state = 'cancelled', cancelled_at = $2 WHERE id = ANY($1::uuid[]) AND state = 'pending'""";

    static final String SET_STATE = """
            UPDATE workflows SET state = $2,
                   completed_at = CASE WHEN $2 IN ('completed', 'failed') THEN $3::timestamptz END,
                   cancelled_at = CASE WHEN $2 = 'cancelled' THEN $3::timestamptz END
            WHERE id = $1""";

    /**
     * Workflow CANCEL: every member not yet started ($3: the states cancel may start from, less active) is
     * cancelled; an active one may finish (ojs-workflows.md 11.3, graceful cancellation).
     */
    static final String CANCEL_MEMBERS = """
            UPDATE jobs j SET state = 'cancelled', cancelled_at = $2, run_at = NULL
            FROM workflow_jobs wj WHERE wj.workflow_id = $1 AND j.id = wj.job_id AND j.state = ANY($3::text[])
            RETURNING j.id""";

    static final String FIND = """
            SELECT id, type, name, state, created_at, completed_at, cancelled_at FROM workflows WHERE id = $1""";

    static final String FIND_MEMBERS = """
            SELECT wj.job_id, wj.role, wj.position, wj.outcome, j.state, j.type, j.queue, j.attempt,
                   j.result::text AS result, j.error::text AS error, j.started_at, j.completed_at
            FROM workflow_jobs wj LEFT JOIN jobs j ON j.id = wj.job_id WHERE wj.workflow_id = $1
            ORDER BY wj.role <> 'step', wj.role, wj.position""";

    /** Workflows with a finished member they have not accounted for (lease reaper, expiry, single-job cancel). */
    static final String UNACCOUNTED = """
            SELECT DISTINCT wj.workflow_id FROM workflow_jobs wj JOIN jobs j ON j.id = wj.job_id
            WHERE wj.outcome IS NULL AND j.state IN ('completed', 'discarded', 'cancelled') LIMIT $1""";

    /**
     * Pruning: finished workflows past retention whose jobs are all finished or gone (an active member of a
     * cancelled workflow may still finish and be accounted for). SKIP LOCKED leaves a workflow someone is
     * advancing, so instances pruning at once take different rows; ON DELETE CASCADE removes workflow_jobs.
     * jobs.workflow_id is left as it is (no foreign key, V12): a member job kept longer (a dead letter, a revived
     * job) still names its workflow, and its ACK/FAIL, finding no workflow row, is written as a plain job's.
     */
    static final String PRUNE_FINISHED = """
            WITH old AS (
                SELECT w.id FROM workflows w
                WHERE w.state IN ('completed', 'failed', 'cancelled') AND coalesce(w.completed_at, w.cancelled_at) < $1
                  AND NOT EXISTS (SELECT 1 FROM workflow_jobs wj JOIN jobs j ON j.id = wj.job_id
                                  WHERE wj.workflow_id = w.id AND j.state NOT IN ('completed', 'discarded', 'cancelled'))
                LIMIT $2 FOR UPDATE OF w SKIP LOCKED)
            DELETE FROM workflows w USING old WHERE w.id = old.id""";

    /** The workflow of a job, for the console's job page. */
    static final String OF_JOB = "SELECT workflow_id FROM workflow_jobs WHERE job_id = $1";
}
