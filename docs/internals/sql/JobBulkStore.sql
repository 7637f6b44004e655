-- The statements of store JobBulkStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- JobBulkStore.LIVE_BATCH
SELECT id FROM jobs WHERE state <> 'active' AND state = ANY($1) %s LIMIT $2 FOR UPDATE SKIP LOCKED;

-- JobBulkStore.COUNT_MATCHING
SELECT (SELECT count(*) FROM (SELECT 1 FROM jobs WHERE state <> 'active' AND state = ANY($1) %1$s LIMIT 10000) l) AS live, (SELECT count(*) FROM (SELECT 1 FROM job_history WHERE state = ANY($2) %1$s LIMIT 10000) h) AS finished;

-- JobBulkStore.CANCEL_BATCH
WITH batch AS MATERIALIZED (SELECT id FROM jobs WHERE state <> 'active' AND state = ANY($1) %s LIMIT $2 FOR UPDATE SKIP LOCKED),
fin AS (DELETE FROM jobs j  WHERE j.id IN (SELECT id FROM batch) AND j.state = ANY($1) RETURNING j.*),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'cancelled' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.error AS error, fin.errors AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, $3::timestamptz AS cancelled_at, fin.discarded_at AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'cancelled' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN $3::timestamptz ELSE fin.discarded_at END FROM fin RETURNING *)
SELECT count(*) AS n FROM ins;

-- JobBulkStore.RETRY_NOW_BATCH
WITH batch AS MATERIALIZED (SELECT id FROM jobs WHERE state <> 'active' AND state = ANY($1) %s LIMIT $2 FOR UPDATE SKIP LOCKED) UPDATE jobs SET state = 'available', run_at = $3, enqueued_at = $3 WHERE id IN (SELECT id FROM batch) AND state = ANY($1) RETURNING id;

-- JobBulkStore.FINISHED_BATCH
SELECT id FROM job_history WHERE state = ANY($1) AND dead_letter = $3 %s LIMIT $2;

-- JobBulkStore.DELETE_LIVE_BATCH
WITH batch AS MATERIALIZED (SELECT id FROM jobs WHERE state <> 'active' AND state = ANY($1) %s LIMIT $2 FOR UPDATE SKIP LOCKED) DELETE FROM jobs WHERE id IN (SELECT id FROM batch) AND state = ANY($1) RETURNING id;

-- JobBulkStore.DELETE_FINISHED_BATCH
WITH batch AS MATERIALIZED (SELECT id FROM job_history WHERE state = ANY($1) %s LIMIT $2 FOR UPDATE SKIP LOCKED) DELETE FROM job_history WHERE id IN (SELECT id FROM batch) AND state = ANY($1) RETURNING id;

-- JobBulkStore.countMatching(selected ids)
SELECT (SELECT count(*) FROM (SELECT 1 FROM jobs WHERE state <> 'active' AND state = ANY($1)  AND id = ANY($3) LIMIT 10000) l) AS live, (SELECT count(*) FROM (SELECT 1 FROM job_history WHERE state = ANY($2)  AND id = ANY($3) LIMIT 10000) h) AS finished;

-- JobBulkStore.countMatching(time range)
SELECT (SELECT count(*) FROM (SELECT 1 FROM jobs WHERE state <> 'active' AND state = ANY($1)  AND created_at >= $3 AND created_at < $4 LIMIT 10000) l) AS live, (SELECT count(*) FROM (SELECT 1 FROM job_history WHERE state = ANY($2)  AND created_at >= $3 AND created_at < $4 LIMIT 10000) h) AS finished;

-- JobBulkStore.countMatchingByPart(text search)
SELECT count(*) FILTER (WHERE true AND job_search_text(args, meta, errors) ILIKE $3) AS n, count(*) AS read FROM (SELECT * FROM jobs WHERE state <> 'active' AND state = ANY($1) ORDER BY created_at DESC, id DESC LIMIT 5000) j UNION ALL SELECT count(*) FILTER (WHERE state = ANY($2) AND job_search_text(args, meta, errors) ILIKE $3) AS n, count(*) AS read FROM (SELECT * FROM job_history_done_20261129 WHERE true ORDER BY created_at DESC, id DESC LIMIT 5000) j UNION ALL SELECT count(*) AS n, 0 AS read FROM (SELECT 1 FROM job_history_dead WHERE state = ANY($2) AND job_search_text(args, meta, errors) ILIKE $3 UNION ALL SELECT 1 FROM job_history_done_20261128 WHERE state = ANY($2) AND job_search_text(args, meta, errors) ILIKE $3 LIMIT 10000) x;

-- JobBulkStore.countMatchingByPart(queue and type)
SELECT count(*) AS n, 0 AS read FROM (SELECT 1 FROM jobs WHERE state <> 'active' AND state = ANY($1) AND queue = $3 AND type = $4 LIMIT 10000) l UNION ALL SELECT count(*) FILTER (WHERE state = ANY($2) AND queue = $3 AND type = $4) AS n, count(*) AS read FROM (SELECT * FROM job_history_done_20261129 WHERE true ORDER BY created_at DESC, id DESC LIMIT 5000) j UNION ALL SELECT count(*) AS n, 0 AS read FROM (SELECT 1 FROM job_history_dead WHERE state = ANY($2) AND queue = $3 AND type = $4 UNION ALL SELECT 1 FROM job_history_done_20261128 WHERE state = ANY($2) AND queue = $3 AND type = $4 LIMIT 10000) x;

-- JobBulkStore.batch(CANCEL_BATCH, selected ids)
WITH batch AS MATERIALIZED (SELECT id FROM jobs WHERE state <> 'active' AND state = ANY($1)  AND id = ANY($4) LIMIT $2 FOR UPDATE SKIP LOCKED),
fin AS (DELETE FROM jobs j  WHERE j.id IN (SELECT id FROM batch) AND j.state = ANY($1) RETURNING j.*),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'cancelled' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.error AS error, fin.errors AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, $3::timestamptz AS cancelled_at, fin.discarded_at AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'cancelled' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN $3::timestamptz ELSE fin.discarded_at END FROM fin RETURNING *)
SELECT count(*) AS n FROM ins;

-- JobBulkStore.batch(CANCEL_BATCH, queue and type)
WITH batch AS MATERIALIZED (SELECT id FROM jobs WHERE state <> 'active' AND state = ANY($1)  AND queue = $4 AND type = $5 LIMIT $2 FOR UPDATE SKIP LOCKED),
fin AS (DELETE FROM jobs j  WHERE j.id IN (SELECT id FROM batch) AND j.state = ANY($1) RETURNING j.*),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'cancelled' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.error AS error, fin.errors AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, $3::timestamptz AS cancelled_at, fin.discarded_at AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'cancelled' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN $3::timestamptz ELSE fin.discarded_at END FROM fin RETURNING *)
SELECT count(*) AS n FROM ins;

-- JobBulkStore.batch(CANCEL_BATCH, queue, type prefix, tag, time range, text search and args value)
WITH batch AS MATERIALIZED (SELECT id FROM jobs WHERE state <> 'active' AND state = ANY($1)  AND queue = $4 AND created_at >= $5 AND created_at < $6 AND type LIKE $7 AND tags @> ARRAY[$8::text] AND job_search_text(args, meta, errors) ILIKE $9 AND job_search_text(args, meta, errors) ILIKE $10 AND jsonb_path_exists(args, $11::text::jsonpath, $12::text::jsonb) LIMIT $2 FOR UPDATE SKIP LOCKED),
fin AS (DELETE FROM jobs j  WHERE j.id IN (SELECT id FROM batch) AND j.state = ANY($1) RETURNING j.*),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'cancelled' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.error AS error, fin.errors AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, $3::timestamptz AS cancelled_at, fin.discarded_at AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'cancelled' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN $3::timestamptz ELSE fin.discarded_at END FROM fin RETURNING *)
SELECT count(*) AS n FROM ins;

-- JobBulkStore.batch(RETRY_NOW_BATCH, queue and type)
WITH batch AS MATERIALIZED (SELECT id FROM jobs WHERE state <> 'active' AND state = ANY($1)  AND queue = $4 AND type = $5 LIMIT $2 FOR UPDATE SKIP LOCKED) UPDATE jobs SET state = 'available', run_at = $3, enqueued_at = $3 WHERE id IN (SELECT id FROM batch) AND state = ANY($1) RETURNING id;

-- JobBulkStore.batch(DELETE_LIVE_BATCH, queue and type)
WITH batch AS MATERIALIZED (SELECT id FROM jobs WHERE state <> 'active' AND state = ANY($1)  AND queue = $3 AND type = $4 LIMIT $2 FOR UPDATE SKIP LOCKED) DELETE FROM jobs WHERE id IN (SELECT id FROM batch) AND state = ANY($1) RETURNING id;

-- JobBulkStore.batch(DELETE_FINISHED_BATCH, queue and type)
WITH batch AS MATERIALIZED (SELECT id FROM job_history WHERE state = ANY($1)  AND queue = $3 AND type = $4 LIMIT $2 FOR UPDATE SKIP LOCKED) DELETE FROM job_history WHERE id IN (SELECT id FROM batch) AND state = ANY($1) RETURNING id;

-- JobBulkStore.batch(FINISHED_BATCH, queue and type)
SELECT id FROM job_history WHERE state = ANY($1) AND dead_letter = $3  AND queue = $4 AND type = $5 LIMIT $2;
