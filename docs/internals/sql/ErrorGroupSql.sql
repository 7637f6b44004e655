-- The statements of store ErrorGroupSql, rendered by RenderedSqlTest from the code: do not edit by hand.

-- ErrorGroupSql.LIST_GROUPS
SELECT id, error_type, message, failures, first_seen, last_seen, queues, types FROM error_groups WHERE $2::timestamptz IS NULL OR (last_seen, id) < ($2, $3) ORDER BY last_seen DESC, id DESC LIMIT $1;

-- ErrorGroupSql.FIND_GROUP
SELECT id, error_type, message, failures, first_seen, last_seen, queues, types FROM error_groups WHERE id = $1;

-- ErrorGroupSql.HOURS
SELECT group_id, hour, failures FROM error_group_hours WHERE group_id = ANY($1::int8[]) AND hour >= $2 ORDER BY group_id, hour;

-- ErrorGroupSql.COUNT_BY_STATE
SELECT state, dead_letter, count(*) AS n FROM all_jobs WHERE error_group = $1 GROUP BY state, dead_letter;

-- ErrorGroupSql.RETRY_NOW_BATCH
UPDATE jobs SET state = 'available', run_at = $3, enqueued_at = $3
WHERE id IN (SELECT id FROM jobs WHERE error_group = $1 AND state = ANY($2) LIMIT $4
             FOR UPDATE SKIP LOCKED) AND state = ANY($2)
RETURNING id;

-- ErrorGroupSql.DISCARDED_BATCH
SELECT id FROM job_history WHERE error_group = $1 AND dead_letter = $2 AND state = 'discarded' LIMIT $3;

-- ErrorGroupSql.DISCARD_BATCH
WITH batch AS MATERIALIZED (SELECT id FROM jobs WHERE error_group = $1 AND state = ANY($2) AND workflow_id IS NULL LIMIT $4 FOR UPDATE SKIP LOCKED),
fin AS (DELETE FROM jobs j  WHERE j.id IN (SELECT id FROM batch) AND j.state = ANY($2) RETURNING j.*),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'discarded' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.error AS error, fin.errors AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, false AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, fin.cancelled_at AS cancelled_at, $3::timestamptz AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'discarded' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN fin.cancelled_at ELSE $3::timestamptz END FROM fin RETURNING *)
SELECT id FROM ins;

-- ErrorGroupSql.DELETE_DISCARDED_BATCH
WITH batch AS MATERIALIZED (SELECT id FROM job_history WHERE error_group = $1
    AND state = 'discarded' LIMIT $2 FOR UPDATE SKIP LOCKED)
DELETE FROM job_history WHERE id IN (SELECT id FROM batch) AND state = 'discarded'
RETURNING id;

-- ErrorGroupSql.DELETE_RETRYABLE_BATCH
WITH batch AS MATERIALIZED (SELECT id FROM jobs WHERE error_group = $1 AND state = 'retryable'
    LIMIT $2 FOR UPDATE SKIP LOCKED)
DELETE FROM jobs WHERE id IN (SELECT id FROM batch) AND state = 'retryable'
RETURNING id;

-- ErrorGroupSql.DELETE_GROUP
WITH h AS (DELETE FROM error_group_hours WHERE group_id = $1) DELETE FROM error_groups WHERE id = $1;

-- ErrorGroupSql.PRUNE_HOURS
DELETE FROM error_group_hours WHERE ctid = ANY(ARRAY(
SELECT ctid FROM error_group_hours WHERE hour < $1 LIMIT $2));

-- ErrorGroupSql.PRUNE_GROUPS
WITH gone AS (
    DELETE FROM error_groups g WHERE g.id = ANY(ARRAY(
        SELECT id FROM error_groups e WHERE e.last_seen < $1
          AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.error_group = e.id)
          AND NOT EXISTS (SELECT 1 FROM job_history h WHERE h.error_group = e.id)
        LIMIT $2))
    RETURNING g.id),
h AS (DELETE FROM error_group_hours WHERE group_id IN (SELECT id FROM gone))
SELECT count(*) AS n FROM gone;
