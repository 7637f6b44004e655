-- The statements of store MaintenanceSql, rendered by RenderedSqlTest from the code: do not edit by hand.

-- MaintenanceSql.LOCK_EXPIRED_LEASES
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
SELECT j.id, j.type, j.queue, j.priority, j.tags, j.state, j.attempt, j.snoozes, j.max_attempts, j.run, j.timeout_ms, j.visibility_timeout_ms, j.run_at, j.scheduled_at, j.expires_at, j.retry_delay_ms, j.dead_letter, j.created_at, j.enqueued_at, j.started_at, j.completed_at, j.cancelled_at, j.discarded_at, j.lease_owner, j.lease_expires_at, j.execution_deadline, j.lease_renewed_at, j.workflow_id, j.checkpointed, j.args::text AS args, j.meta::text AS meta, j.extensions::text AS extensions, j.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result, j.lease_expires_at <= $1 AS lease_ran_out FROM jobs j JOIN due ON due.id = j.id;

-- MaintenanceSql.PROMOTE_DUE
WITH due AS (
    SELECT id FROM jobs WHERE state IN ('scheduled', 'retryable') AND run_at <= $1 AND run_at > $3
    ORDER BY run_at LIMIT $2 FOR UPDATE SKIP LOCKED),
promoted AS (
    UPDATE jobs j SET state = 'available', enqueued_at = j.run_at
    FROM due WHERE j.id = due.id
    RETURNING j.id, j.type, j.queue, j.priority)
SELECT p.*, (SELECT count(pg_notify('steadfast_jobs', q.queue)) FROM (SELECT DISTINCT queue FROM promoted) q) AS notified
FROM promoted p;

-- MaintenanceSql.LOCK_EXPIRED_JOBS
SELECT id, type, queue, priority, tags, state, attempt, snoozes, max_attempts, run, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, workflow_id, checkpointed, args::text AS args, meta::text AS meta, extensions::text AS extensions, retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result FROM jobs WHERE expires_at <= $1 AND state IN ('available', 'scheduled', 'retryable', 'pending') ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED;

-- MaintenanceSql.LOCK_EXPIRED_JOB
SELECT id, type, queue, priority, tags, state, attempt, snoozes, max_attempts, run, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, workflow_id, checkpointed, args::text AS args, meta::text AS meta, extensions::text AS extensions, retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result FROM jobs WHERE id = $3 AND expires_at <= $1 AND state IN ('available', 'scheduled', 'retryable', 'pending') LIMIT $2 FOR UPDATE;

-- MaintenanceSql.DISCARD_EXPIRED
WITH fin AS (DELETE FROM jobs j USING unnest($1::uuid[], $2::text[]) AS e(id, entry) WHERE j.id = e.id AND j.state IN ('available', 'scheduled', 'retryable', 'pending') RETURNING j.*, e.entry AS x_entry),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'discarded' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.x_entry::jsonb AS error, jsonb_path_query_array(fin.errors || fin.x_entry::jsonb, '$[last - $k to last]', jsonb_build_object('k', $4::int - 1)) AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, fin.cancelled_at AS cancelled_at, $3::timestamptz AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'discarded' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN fin.cancelled_at ELSE $3::timestamptz END FROM fin RETURNING *)
SELECT ins.id, ins.type, ins.queue, ins.priority, ins.tags, ins.state, ins.attempt, ins.snoozes, ins.max_attempts, ins.run, ins.timeout_ms, ins.visibility_timeout_ms, ins.run_at, ins.scheduled_at, ins.expires_at, ins.retry_delay_ms, ins.dead_letter, ins.created_at, ins.enqueued_at, ins.started_at, ins.completed_at, ins.cancelled_at, ins.discarded_at, ins.lease_owner, ins.lease_expires_at, ins.execution_deadline, ins.lease_renewed_at, ins.workflow_id, ins.checkpointed, ins.args::text AS args, ins.meta::text AS meta, ins.extensions::text AS extensions, ins.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result FROM ins;

-- MaintenanceSql.PRUNE_FINISHED
WITH old AS (
    SELECT id FROM job_history_done_default WHERE finished_at < $1
    LIMIT $2 FOR UPDATE SKIP LOCKED)
DELETE FROM job_history_done_default h USING old WHERE h.id = old.id;

-- MaintenanceSql.PRUNE_DEAD_LETTERS
WITH old AS (
    SELECT id FROM job_history_dead WHERE discarded_at < $1
    LIMIT $2 FOR UPDATE SKIP LOCKED)
DELETE FROM job_history_dead h USING old WHERE h.id = old.id;

-- MaintenanceSql.PREPARE_PARTITIONS
SELECT count(*) FILTER (WHERE steadfast_history_partition(d::date))
FROM generate_series($1::date::timestamp, ($1::date + $2::int)::timestamp, interval '1 day') d;

-- MaintenanceSql.LIST_PARTITIONS
SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'job_history_done'::regclass AND c.relname ~ '^job_history_done_[0-9]{8}$'
ORDER BY c.relname;

-- MaintenanceSql.PARTITION_LOCK_TIMEOUT
SET LOCAL lock_timeout = '1s';

-- MaintenanceSql.LOCK_PARTITIONS
SELECT pg_advisory_xact_lock(hashtext('steadfast_history_partitions'));

-- MaintenanceSql.PRUNE_ORPHAN_PROGRESS
DELETE FROM job_progress p WHERE p.job_id IN (
SELECT q.job_id FROM job_progress q
WHERE NOT EXISTS (SELECT 1 FROM all_jobs j WHERE j.id = q.job_id) LIMIT $1);

-- MaintenanceSql.PRUNE_FINISHED_CHECKPOINTS
DELETE FROM job_checkpoints c WHERE c.job_id IN (
SELECT q.job_id FROM job_checkpoints q
WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = q.job_id)
  AND NOT EXISTS (SELECT 1 FROM job_history h WHERE h.id = q.job_id AND h.state = 'discarded')
LIMIT $1);

-- MaintenanceSql.FORGET_WORKERS
DELETE FROM workers WHERE last_seen < $1;

-- MaintenanceSql.countPartition(an old day's partition)
SELECT count(*) FROM "job_history_done_20261101";

-- MaintenanceSql.dropPartition(an old day's partition)
DROP TABLE "job_history_done_20261101";
