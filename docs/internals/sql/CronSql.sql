-- The statements of store CronSql, rendered by RenderedSqlTest from the code: do not edit by hand.

-- CronSql.INSERT
INSERT INTO cron_jobs (name, expression, timezone, overlap_policy, enabled, description, template,
                       next_fire_at, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7::text::jsonb, $8, $9)
ON CONFLICT (name) DO NOTHING RETURNING name;

-- CronSql.FIND
SELECT c.name, c.expression, c.timezone, c.overlap_policy, c.enabled, c.description, c.template::text AS template,
c.next_fire_at, c.last_fire_at, c.last_job_id, c.run_count, c.created_at,
(SELECT j.state FROM all_jobs j WHERE j.id = c.last_job_id) AS last_job_state,
r.outcome AS last_outcome, r.fire_at AS last_outcome_at, r.reason AS last_reason,
(SELECT count(*) FROM cron_runs h WHERE h.cron_name = c.name AND h.held) AS queued FROM cron_jobs c
LEFT JOIN LATERAL (SELECT outcome, fire_at, reason FROM cron_runs WHERE cron_name = c.name
                   ORDER BY fire_at DESC LIMIT 1) r ON true WHERE c.name = $1;

-- CronSql.LIST
SELECT c.name, c.expression, c.timezone, c.overlap_policy, c.enabled, c.description, c.template::text AS template,
c.next_fire_at, c.last_fire_at, c.last_job_id, c.run_count, c.created_at,
(SELECT j.state FROM all_jobs j WHERE j.id = c.last_job_id) AS last_job_state,
r.outcome AS last_outcome, r.fire_at AS last_outcome_at, r.reason AS last_reason,
(SELECT count(*) FROM cron_runs h WHERE h.cron_name = c.name AND h.held) AS queued, count(*) OVER () AS total FROM cron_jobs c
LEFT JOIN LATERAL (SELECT outcome, fire_at, reason FROM cron_runs WHERE cron_name = c.name
                   ORDER BY fire_at DESC LIMIT 1) r ON true ORDER BY c.name LIMIT $1 OFFSET $2;

-- CronSql.DELETE
DELETE FROM cron_jobs WHERE name = $1 RETURNING name;

-- CronSql.RELEASE_ALL_HELD
WITH s AS (SELECT name FROM cron_jobs WHERE name = $1 FOR UPDATE),
a AS (
    UPDATE jobs j SET state = 'available', run_at = $2, enqueued_at = $2
    FROM cron_runs r JOIN s ON s.name = r.cron_name
    WHERE r.held AND j.id = r.job_id AND j.state = 'pending' RETURNING j.queue)
SELECT count(pg_notify('steadfast_jobs', q.queue)) FROM (SELECT DISTINCT queue FROM a) q;

-- CronSql.SET_ENABLED
UPDATE cron_jobs SET enabled = $2, next_fire_at = $3 WHERE name = $1 RETURNING name;

-- CronSql.LOCK_DUE
SELECT c.name, c.expression, c.timezone, c.overlap_policy, c.template::text AS template, c.next_fire_at,
       c.last_job_id, (SELECT j.state FROM all_jobs j WHERE j.id = c.last_job_id) AS last_job_state,
       (SELECT count(*) FROM cron_runs h WHERE h.cron_name = c.name AND h.held)::int4 AS held
FROM cron_jobs c WHERE c.enabled AND c.next_fire_at <= $1
ORDER BY c.next_fire_at LIMIT $2 FOR UPDATE OF c SKIP LOCKED;

-- CronSql.RECORD_RUN
INSERT INTO cron_runs (cron_name, fire_at, outcome, job_id, reason, created_at, held)
VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (cron_name, fire_at) DO NOTHING RETURNING cron_name;

-- CronSql.CANCEL_RUN
WITH fin AS (DELETE FROM jobs j  WHERE j.id = $1 AND j.state IN ('available', 'scheduled', 'retryable', 'pending', 'active') RETURNING j.*),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'cancelled' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.error AS error, fin.errors AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, $2::timestamptz AS cancelled_at, fin.discarded_at AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'cancelled' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN $2::timestamptz ELSE fin.discarded_at END FROM fin RETURNING *)
SELECT id FROM ins;

-- CronSql.LOCK_HELD
SELECT c.name, h.fire_at, h.job_id,
       (SELECT j.state FROM all_jobs j WHERE j.id = (
            SELECT p.job_id FROM cron_runs p
            WHERE p.cron_name = c.name AND p.fire_at < h.fire_at AND p.job_id IS NOT NULL AND NOT p.held
            ORDER BY p.fire_at DESC LIMIT 1)) AS before_state
FROM cron_jobs c
CROSS JOIN LATERAL (SELECT r.fire_at, r.job_id FROM cron_runs r WHERE r.cron_name = c.name AND r.held
                    ORDER BY r.fire_at LIMIT 1) h
WHERE c.overlap_policy = 'enqueue'
ORDER BY c.name LIMIT $1 FOR UPDATE OF c SKIP LOCKED;

-- CronSql.RELEASE_HELD
WITH r AS (
    UPDATE cron_runs SET held = false WHERE cron_name = $1 AND fire_at = $2 AND held RETURNING job_id),
a AS (
    UPDATE jobs j SET state = 'available', run_at = $3, enqueued_at = $3
    FROM r WHERE j.id = r.job_id AND j.state = 'pending' RETURNING j.queue)
SELECT (SELECT count(*) FROM r) AS released, (SELECT count(pg_notify('steadfast_jobs', q.queue)) FROM (SELECT DISTINCT queue FROM a) q) AS notified;

-- CronSql.ADVANCE
UPDATE cron_jobs SET next_fire_at = $2::timestamptz, enabled = enabled AND $2::timestamptz IS NOT NULL,
       last_fire_at = CASE WHEN $4::uuid IS NULL THEN last_fire_at ELSE $3 END,
       last_job_id = coalesce($4, last_job_id),
       run_count = run_count + CASE WHEN $4::uuid IS NULL THEN 0 ELSE 1 END
WHERE name = $1 AND next_fire_at = $5;

-- CronSql.LOCK_ONE
SELECT name FROM cron_jobs WHERE name = $1 FOR UPDATE;

-- CronSql.RECORD_MANUAL_RUN
UPDATE cron_jobs SET last_fire_at = $2, last_job_id = $3, run_count = run_count + 1 WHERE name = $1;

-- CronSql.RECENT_RUNS
SELECT r.fire_at, r.outcome, r.job_id, r.reason, r.held,
       (SELECT j.state FROM all_jobs j WHERE j.id = r.job_id) AS job_state
FROM cron_runs r WHERE r.cron_name = $1 ORDER BY r.fire_at DESC LIMIT $2;
