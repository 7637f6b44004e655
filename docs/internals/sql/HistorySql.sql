-- The statements of store HistorySql, rendered by RenderedSqlTest from the code: do not edit by hand.

-- HistorySql.START_NEW_RUNS
WITH old AS (
    DELETE FROM job_history h WHERE h.id = ANY($1::uuid[]) AND h.state = ANY($2::text[])
      AND h.dead_letter = $3
    RETURNING h.*),
revived AS (
    INSERT INTO jobs (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at)
    SELECT old.id AS id, old.type AS type, old.queue AS queue, old.args AS args, old.meta AS meta, old.extensions AS extensions, old.priority AS priority, old.tags AS tags, 'available' AS state, 0 AS attempt, 0 AS snoozes, old.max_attempts AS max_attempts, old.retry_policy AS retry_policy, NULL AS error, old.errors AS errors, old.run + 1 AS run, NULL AS result, old.timeout_ms AS timeout_ms, old.visibility_timeout_ms AS visibility_timeout_ms, $4::timestamptz AS run_at, old.scheduled_at AS scheduled_at, old.expires_at AS expires_at, NULL AS retry_delay_ms, false AS dead_letter, old.created_at AS created_at, $4::timestamptz AS enqueued_at, NULL AS started_at, NULL AS completed_at, NULL AS cancelled_at, NULL AS discarded_at, old.lease_owner AS lease_owner, old.lease_expires_at AS lease_expires_at, old.execution_deadline AS execution_deadline, old.lease_renewed_at AS lease_renewed_at, old.unique_key AS unique_key, old.workflow_id AS workflow_id, old.rate_limit_key AS rate_limit_key, old.tenant_id AS tenant_id, NULL AS error_group, old.checkpointed AS checkpointed, NULL AS lease_check_at FROM old
    RETURNING id, type, queue, priority, tags, state, attempt, snoozes, max_attempts, run, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, workflow_id, checkpointed, args::text AS args, meta::text AS meta, extensions::text AS extensions, retry_policy::text AS retry_policy, error::text AS error, errors::text AS errors, result::text AS result)
SELECT r.*, (SELECT count(pg_notify('steadfast_jobs', q.queue)) FROM (SELECT DISTINCT queue FROM revived) q) AS notified
FROM revived r;
