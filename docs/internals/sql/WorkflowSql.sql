-- The statements of store WorkflowSql, rendered by RenderedSqlTest from the code: do not edit by hand.

-- WorkflowSql.INSERT_WORKFLOWS
INSERT INTO workflows (id, type, name, state, created_at, parent_id, root_id)
SELECT u.id, u.type, u.name, u.state, $5, u.parent_id, u.root_id
FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $6::uuid[], $7::uuid[])
     AS u(id, type, name, state, parent_id, root_id);

-- WorkflowSql.MARK_MEMBERS
UPDATE jobs j SET workflow_id = m.wf FROM unnest($1::uuid[], $2::uuid[]) AS m(id, wf) WHERE j.id = m.id;

-- WorkflowSql.INSERT_MEMBERS
INSERT INTO workflow_jobs (job_id, workflow_id, role, position, delay_ms, child, step_key)
SELECT u.id, u.wf, u.role, u.pos, u.delay_ms, u.child, u.step_key
FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::int4[], $5::int8[], $6::bool[], $7::text[])
     AS u(id, wf, role, pos, delay_ms, child, step_key);

-- WorkflowSql.LOCK_ROOT
SELECT r.id, r.type, r.state, r.parent_id
FROM workflows w JOIN workflows r ON r.id = coalesce(w.root_id, w.id) WHERE w.id = $1
FOR UPDATE OF r;

-- WorkflowSql.LOCK_ROOT_SKIP
SELECT r.id, r.type, r.state, r.parent_id
FROM workflows w JOIN workflows r ON r.id = coalesce(w.root_id, w.id) WHERE w.id = $1
FOR UPDATE OF r SKIP LOCKED;

-- WorkflowSql.READ
SELECT type, state, parent_id FROM workflows WHERE id = $1;

-- WorkflowSql.MEMBERS
SELECT wj.job_id, wj.role, wj.position, wj.outcome, wj.child, j.state, c.state AS child_state
FROM workflow_jobs wj LEFT JOIN all_jobs j ON j.id = wj.job_id AND NOT wj.child
     LEFT JOIN workflows c ON c.id = wj.job_id AND wj.child
WHERE wj.workflow_id = $1;

-- WorkflowSql.START
UPDATE workflows SET state = 'running' WHERE id = $1 AND state = 'pending' RETURNING type;

-- WorkflowSql.CANCEL_TREES
WITH RECURSIVE sub AS (
    SELECT id FROM workflows WHERE id = ANY($1::uuid[])
    UNION ALL SELECT w.id FROM workflows w JOIN sub ON w.parent_id = sub.id),
wf AS (
    UPDATE workflows SET state = 'cancelled', cancelled_at = $2, completed_at = NULL
    WHERE id IN (SELECT id FROM sub) AND state IN ('pending', 'running') RETURNING id),
fin AS (DELETE FROM jobs j USING workflow_jobs wj WHERE wj.workflow_id IN (SELECT id FROM sub) AND NOT wj.child AND j.id = wj.job_id
  AND j.state = ANY($3::text[]) RETURNING j.*),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'cancelled' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.error AS error, fin.errors AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, $2::timestamptz AS cancelled_at, fin.discarded_at AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'cancelled' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN $2::timestamptz ELSE fin.discarded_at END FROM fin RETURNING *)
UPDATE workflow_jobs SET outcome = 'cancelled'
WHERE workflow_id IN (SELECT id FROM sub) AND outcome IS NULL
  AND (job_id IN (SELECT id FROM ins) OR (child AND job_id IN (SELECT id FROM wf)));

-- WorkflowSql.RECORD_DECISION
WITH o AS (
    UPDATE workflow_jobs w SET outcome = o.outcome FROM unnest($4::uuid[], $5::text[]) AS o(id, outcome)
    WHERE w.job_id = o.id AND w.outcome IS NULL)
UPDATE workflows SET state = $2,
       completed_at = CASE WHEN $2 IN ('completed', 'failed') THEN $3::timestamptz END,
       cancelled_at = CASE WHEN $2 = 'cancelled' THEN $3::timestamptz END
WHERE id = $1 AND $2::text IS NOT NULL;

-- WorkflowSql.ACTIVATE
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
       CASE WHEN state = 'available' THEN pg_notify('steadfast_jobs', queue)::text END AS notified
FROM a;

-- WorkflowSql.CANCEL_WAITING
WITH fin AS (DELETE FROM jobs j  WHERE j.id = ANY($1::uuid[]) AND j.state = 'pending' RETURNING j.*),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'cancelled' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.error AS error, fin.errors AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, $2::timestamptz AS cancelled_at, fin.discarded_at AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'cancelled' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN $2::timestamptz ELSE fin.discarded_at END FROM fin RETURNING *)
SELECT count(*) FROM ins;

-- WorkflowSql.FIND
SELECT id, type, name, state, created_at, completed_at, cancelled_at, parent_id
FROM workflows WHERE id = $1;

-- WorkflowSql.NOTE_STARTED
UPDATE workflows w SET started_at = j.started_at FROM all_jobs j
WHERE w.id = $1 AND j.id = $2 AND j.started_at IS NOT NULL
  AND (w.started_at IS NULL OR j.started_at < w.started_at);

-- WorkflowSql.FIND_TREE_JOBS
WITH RECURSIVE tree AS (
    SELECT id, started_at, 0 AS depth FROM workflows WHERE id = $1
    UNION ALL SELECT w.id, w.started_at, t.depth + 1 FROM workflows w JOIN tree t ON w.parent_id = t.id)
SELECT wj.job_id, wj.workflow_id, wj.role, wj.position, wj.outcome, j.state, j.attempt, j.started_at,
       j.error->>'code' AS error_code, j.error->>'message' AS error_message, j.error::text AS error,
       (SELECT min(started_at) FROM tree) AS recorded_start
FROM tree t JOIN workflow_jobs wj ON wj.workflow_id = t.id AND NOT wj.child
     LEFT JOIN all_jobs j ON j.id = wj.job_id
ORDER BY t.depth, wj.workflow_id, wj.role <> 'step', wj.role, wj.position;

-- WorkflowSql.FIND_MEMBERS
SELECT wj.job_id, wj.role, wj.position, wj.outcome, wj.child, j.state, j.type, j.queue, j.attempt,
       j.result::text AS result, j.error::text AS error, j.started_at, j.completed_at,
       c.type AS child_type, c.state AS child_state, c.completed_at AS child_completed_at, wj.step_key
FROM workflow_jobs wj LEFT JOIN all_jobs j ON j.id = wj.job_id AND NOT wj.child
     LEFT JOIN workflows c ON c.id = wj.job_id AND wj.child
WHERE wj.workflow_id = $1
ORDER BY wj.role <> 'step', wj.role, wj.position;

-- WorkflowSql.UNACCOUNTED
SELECT DISTINCT wj.workflow_id FROM workflow_jobs wj JOIN job_history j ON j.id = wj.job_id
WHERE wj.outcome IS NULL AND NOT wj.child
LIMIT $1;

-- WorkflowSql.PRUNE_FINISHED
WITH old AS (
    SELECT w.id FROM workflows w
    WHERE w.state IN ('completed', 'failed', 'cancelled') AND coalesce(w.completed_at, w.cancelled_at) < $1
      AND w.parent_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM workflow_jobs wj JOIN jobs j ON j.id = wj.job_id
                      WHERE wj.workflow_id = w.id
                         OR wj.workflow_id IN (SELECT t.id FROM workflows t WHERE t.root_id = w.id))
    LIMIT $2 FOR UPDATE OF w SKIP LOCKED)
DELETE FROM workflows w USING old WHERE w.id = old.id;

-- WorkflowSql.OF_JOB
SELECT workflow_id FROM workflow_jobs WHERE job_id = $1;
