-- The statements of store JobSql, rendered by RenderedSqlTest from the code: do not edit by hand.

-- JobSql.INSERT_NEW_JOBS
WITH notified AS MATERIALIZED (
    SELECT count(pg_notify('steadfast_jobs', d.queue)) AS n
    FROM (SELECT DISTINCT p.queue FROM unnest($3::text[], $9::text[]) AS p(queue, state)
          WHERE p.state = 'available') d)
INSERT INTO jobs (id, type, queue, args, meta, extensions, priority, tags, state, max_attempts,
                  retry_policy, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at,
                  created_at, enqueued_at, unique_key, rate_limit_key, tenant_id)
SELECT u.id, u.type, u.queue, u.args::jsonb, u.meta::jsonb, u.ext::jsonb, u.priority,
       CASE WHEN u.tags IS NULL THEN '{}'::text[] ELSE ARRAY(SELECT jsonb_array_elements_text(u.tags::jsonb)) END, u.state, u.max_attempts,
       u.retry::jsonb, u.timeout_ms, u.vis_ms, u.run_at, u.scheduled_at, u.expires_at,
       u.created_at, u.enqueued_at, u.unique_key, u.rate_limit_key, u.meta::jsonb ->> 'tenant_id'
FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int4[],
            $8::text[], $9::text[], $10::int4[], $11::text[], $12::int8[], $13::int8[],
            $14::timestamptz[], $15::timestamptz[], $16::timestamptz[], $17::timestamptz[],
            $18::timestamptz[], $19::text[], $20::bool[], $21::text[])
     AS u(id, type, queue, args, meta, ext, priority, tags, state, max_attempts, retry, timeout_ms,
          vis_ms, run_at, scheduled_at, expires_at, created_at, enqueued_at, unique_key, client_id,
          rate_limit_key)
WHERE (SELECT n FROM notified) >= 0;

-- JobSql.INSERT_JOBS
WITH notified AS MATERIALIZED (
    SELECT count(pg_notify('steadfast_jobs', d.queue)) AS n
    FROM (SELECT DISTINCT p.queue FROM unnest($3::text[], $9::text[]) AS p(queue, state)
          WHERE p.state = 'available') d)
INSERT INTO jobs (id, type, queue, args, meta, extensions, priority, tags, state, max_attempts,
                  retry_policy, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at,
                  created_at, enqueued_at, unique_key, rate_limit_key, tenant_id)
SELECT u.id, u.type, u.queue, u.args::jsonb, u.meta::jsonb, u.ext::jsonb, u.priority,
       CASE WHEN u.tags IS NULL THEN '{}'::text[] ELSE ARRAY(SELECT jsonb_array_elements_text(u.tags::jsonb)) END, u.state, u.max_attempts,
       u.retry::jsonb, u.timeout_ms, u.vis_ms, u.run_at, u.scheduled_at, u.expires_at,
       u.created_at, u.enqueued_at, u.unique_key, u.rate_limit_key, u.meta::jsonb ->> 'tenant_id'
FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int4[],
            $8::text[], $9::text[], $10::int4[], $11::text[], $12::int8[], $13::int8[],
            $14::timestamptz[], $15::timestamptz[], $16::timestamptz[], $17::timestamptz[],
            $18::timestamptz[], $19::text[], $20::bool[], $21::text[])
     AS u(id, type, queue, args, meta, ext, priority, tags, state, max_attempts, retry, timeout_ms,
          vis_ms, run_at, scheduled_at, expires_at, created_at, enqueued_at, unique_key, client_id,
          rate_limit_key)
WHERE (SELECT n FROM notified) >= 0
  AND NOT (u.client_id AND EXISTS (SELECT 1 FROM job_history h WHERE h.id = u.id))
ON CONFLICT (id) DO NOTHING
RETURNING id;

-- JobSql.REGISTER_QUEUES
INSERT INTO queues (name, created_at) SELECT unnest($1::text[]), $2
ON CONFLICT (name) DO NOTHING;

-- JobSql.START
UPDATE jobs j SET state = 'active', attempt = j.attempt + 1, started_at = $2, lease_owner = $4,
       lease_renewed_at = $2,
       enqueued_at = j.run_at, run_at = NULL,
       execution_deadline = $2 + j.timeout_ms * interval '1 millisecond',
       lease_expires_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond'), lease_check_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond')
FROM next WHERE j.id = next.id
RETURNING next.ord, j.rate_limit_key,;

-- JobSql.CLAIM_LIMITED
WITH next AS (
    SELECT c.id, r.ord FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
    CROSS JOIN LATERAL (
        SELECT id, priority, run_at FROM jobs
        WHERE queue = r.q AND state IN ('available', 'scheduled', 'retryable') AND run_at <= $2 AND (expires_at IS NULL OR expires_at > $2) AND rate_limit_key IS NULL
          AND (tenant_id IS NULL OR tenant_id NOT IN (SELECT x.id FROM tenants x WHERE x.max_concurrency IS NOT NULL))
          AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND (p.paused))
        ORDER BY priority DESC, run_at, id
        LIMIT $3
        FOR UPDATE SKIP LOCKED) c
    ORDER BY r.ord, c.priority DESC, c.run_at, c.id
    LIMIT $3)
UPDATE jobs j SET state = 'active', attempt = j.attempt + 1, started_at = $2, lease_owner = $4,
       lease_renewed_at = $2,
       enqueued_at = j.run_at, run_at = NULL,
       execution_deadline = $2 + j.timeout_ms * interval '1 millisecond',
       lease_expires_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond'), lease_check_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond')
FROM next WHERE j.id = next.id
RETURNING next.ord, j.rate_limit_key, j.id, j.type, j.queue, j.priority, j.tags, j.state, j.attempt, j.snoozes, j.max_attempts, j.run, j.timeout_ms, j.visibility_timeout_ms, j.run_at, j.scheduled_at, j.expires_at, j.retry_delay_ms, j.dead_letter, j.created_at, j.enqueued_at, j.started_at, j.completed_at, j.cancelled_at, j.discarded_at, j.lease_owner, j.lease_expires_at, j.execution_deadline, j.lease_renewed_at, j.workflow_id, j.checkpointed, j.args::text AS args, j.meta::text AS meta, j.extensions::text AS extensions, j.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result;

-- JobSql.CLAIM_KEYED
WITH allowed AS (SELECT * FROM unnest($6::text[], $7::int4[]) AS a(k, n)),
tenants_allowed AS (SELECT * FROM unnest($8::text[], $9::int4[]) AS ta(t, n)),
plain AS (
    SELECT c.id, c.priority, c.run_at, r.ord, c.tenant_id FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
    CROSS JOIN LATERAL (
        SELECT id, priority, run_at, tenant_id FROM jobs
        WHERE queue = r.q AND state IN ('available', 'scheduled', 'retryable') AND run_at <= $2 AND (expires_at IS NULL OR expires_at > $2) AND rate_limit_key IS NULL AND (tenant_id IS NULL OR tenant_id = ANY($8::text[])
       OR tenant_id NOT IN (SELECT x.id FROM tenants x WHERE x.max_concurrency IS NOT NULL))
          AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND (p.paused OR p.limited))
        ORDER BY priority DESC, run_at, id
        LIMIT $3
        FOR UPDATE SKIP LOCKED) c),
keyed AS (
    SELECT c.id, c.priority, c.run_at, r.ord, c.tenant_id, a.k FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
    CROSS JOIN allowed a
    CROSS JOIN LATERAL (
        SELECT id, priority, run_at, tenant_id FROM jobs
        WHERE rate_limit_key = a.k AND queue = r.q AND state IN ('available', 'scheduled', 'retryable') AND run_at <= $2 AND (expires_at IS NULL OR expires_at > $2) AND (tenant_id IS NULL OR tenant_id = ANY($8::text[])
       OR tenant_id NOT IN (SELECT x.id FROM tenants x WHERE x.max_concurrency IS NOT NULL))
          AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND (p.paused OR p.limited))
        ORDER BY priority DESC, run_at, id
        LIMIT least(a.n, $3)
        FOR UPDATE SKIP LOCKED) c),
capped AS (
    SELECT x.id, x.priority, x.run_at, x.ord, x.tenant_id FROM (
        SELECT keyed.*, row_number() OVER (PARTITION BY keyed.k
                                           ORDER BY keyed.ord, keyed.priority DESC, keyed.run_at, keyed.id) AS rn
        FROM keyed) x
    JOIN allowed a ON a.k = x.k WHERE x.rn <= a.n),
both_kinds AS (SELECT * FROM plain UNION ALL SELECT * FROM capped),
tenant_capped AS (
    SELECT y.id, y.priority, y.run_at, y.ord FROM (
        SELECT both_kinds.*, row_number() OVER (PARTITION BY both_kinds.tenant_id
                                                ORDER BY both_kinds.ord, both_kinds.priority DESC,
                                                         both_kinds.run_at, both_kinds.id) AS tn
        FROM both_kinds) y
    LEFT JOIN tenants_allowed ta ON ta.t = y.tenant_id WHERE ta.n IS NULL OR y.tn <= ta.n),
next AS (
    SELECT u.id, u.ord FROM tenant_capped u
    ORDER BY u.ord, u.priority DESC, u.run_at, u.id
    LIMIT $3)
UPDATE jobs j SET state = 'active', attempt = j.attempt + 1, started_at = $2, lease_owner = $4,
       lease_renewed_at = $2,
       enqueued_at = j.run_at, run_at = NULL,
       execution_deadline = $2 + j.timeout_ms * interval '1 millisecond',
       lease_expires_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond'), lease_check_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond')
FROM next WHERE j.id = next.id
RETURNING next.ord, j.rate_limit_key, j.id, j.type, j.queue, j.priority, j.tags, j.state, j.attempt, j.snoozes, j.max_attempts, j.run, j.timeout_ms, j.visibility_timeout_ms, j.run_at, j.scheduled_at, j.expires_at, j.retry_delay_ms, j.dead_letter, j.created_at, j.enqueued_at, j.started_at, j.completed_at, j.cancelled_at, j.discarded_at, j.lease_owner, j.lease_expires_at, j.execution_deadline, j.lease_renewed_at, j.workflow_id, j.checkpointed, j.args::text AS args, j.meta::text AS meta, j.extensions::text AS extensions, j.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result;

-- JobSql.CLAIM_KEYED_LIMITED
WITH allowed AS (SELECT * FROM unnest($6::text[], $7::int4[]) AS a(k, n)),
tenants_allowed AS (SELECT * FROM unnest($8::text[], $9::int4[]) AS ta(t, n)),
plain AS (
    SELECT c.id, c.priority, c.run_at, r.ord, c.tenant_id FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
    CROSS JOIN LATERAL (
        SELECT id, priority, run_at, tenant_id FROM jobs
        WHERE queue = r.q AND state IN ('available', 'scheduled', 'retryable') AND run_at <= $2 AND (expires_at IS NULL OR expires_at > $2) AND rate_limit_key IS NULL AND (tenant_id IS NULL OR tenant_id = ANY($8::text[])
       OR tenant_id NOT IN (SELECT x.id FROM tenants x WHERE x.max_concurrency IS NOT NULL))
          AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND (p.paused))
        ORDER BY priority DESC, run_at, id
        LIMIT $3
        FOR UPDATE SKIP LOCKED) c),
keyed AS (
    SELECT c.id, c.priority, c.run_at, r.ord, c.tenant_id, a.k FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
    CROSS JOIN allowed a
    CROSS JOIN LATERAL (
        SELECT id, priority, run_at, tenant_id FROM jobs
        WHERE rate_limit_key = a.k AND queue = r.q AND state IN ('available', 'scheduled', 'retryable') AND run_at <= $2 AND (expires_at IS NULL OR expires_at > $2) AND (tenant_id IS NULL OR tenant_id = ANY($8::text[])
       OR tenant_id NOT IN (SELECT x.id FROM tenants x WHERE x.max_concurrency IS NOT NULL))
          AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND (p.paused))
        ORDER BY priority DESC, run_at, id
        LIMIT least(a.n, $3)
        FOR UPDATE SKIP LOCKED) c),
capped AS (
    SELECT x.id, x.priority, x.run_at, x.ord, x.tenant_id FROM (
        SELECT keyed.*, row_number() OVER (PARTITION BY keyed.k
                                           ORDER BY keyed.ord, keyed.priority DESC, keyed.run_at, keyed.id) AS rn
        FROM keyed) x
    JOIN allowed a ON a.k = x.k WHERE x.rn <= a.n),
both_kinds AS (SELECT * FROM plain UNION ALL SELECT * FROM capped),
tenant_capped AS (
    SELECT y.id, y.priority, y.run_at, y.ord FROM (
        SELECT both_kinds.*, row_number() OVER (PARTITION BY both_kinds.tenant_id
                                                ORDER BY both_kinds.ord, both_kinds.priority DESC,
                                                         both_kinds.run_at, both_kinds.id) AS tn
        FROM both_kinds) y
    LEFT JOIN tenants_allowed ta ON ta.t = y.tenant_id WHERE ta.n IS NULL OR y.tn <= ta.n),
next AS (
    SELECT u.id, u.ord FROM tenant_capped u
    ORDER BY u.ord, u.priority DESC, u.run_at, u.id
    LIMIT $3)
UPDATE jobs j SET state = 'active', attempt = j.attempt + 1, started_at = $2, lease_owner = $4,
       lease_renewed_at = $2,
       enqueued_at = j.run_at, run_at = NULL,
       execution_deadline = $2 + j.timeout_ms * interval '1 millisecond',
       lease_expires_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond'), lease_check_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond')
FROM next WHERE j.id = next.id
RETURNING next.ord, j.rate_limit_key, j.id, j.type, j.queue, j.priority, j.tags, j.state, j.attempt, j.snoozes, j.max_attempts, j.run, j.timeout_ms, j.visibility_timeout_ms, j.run_at, j.scheduled_at, j.expires_at, j.retry_delay_ms, j.dead_letter, j.created_at, j.enqueued_at, j.started_at, j.completed_at, j.cancelled_at, j.discarded_at, j.lease_owner, j.lease_expires_at, j.execution_deadline, j.lease_renewed_at, j.workflow_id, j.checkpointed, j.args::text AS args, j.meta::text AS meta, j.extensions::text AS extensions, j.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result;

-- JobSql.COMPLETE
WITH fin AS (DELETE FROM jobs j USING unnest((SELECT $1::uuid[]), (SELECT $2::text[]), (SELECT $3::text[])) AS a(id, result, worker) WHERE j.id = a.id AND j.state = ANY((SELECT $5::text[]) COLLATE "C") AND j.lease_expires_at > (SELECT $4::timestamptz)
  AND (a.worker IS NULL OR j.lease_owner IS NULL OR j.lease_owner = a.worker) AND j.workflow_id IS NULL RETURNING j.*, a.result AS x_result),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'completed' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, NULL AS error, fin.errors AS errors, fin.run AS run, fin.x_result::jsonb AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, $4::timestamptz AS completed_at, fin.cancelled_at AS cancelled_at, fin.discarded_at AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, NULL AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'completed' WHEN 'completed' THEN $4::timestamptz WHEN 'cancelled' THEN fin.cancelled_at ELSE fin.discarded_at END FROM fin RETURNING *),
refused AS MATERIALIZED (
    SELECT a.id FROM unnest((SELECT $1::uuid[])) AS a(id)
    WHERE NOT EXISTS (SELECT 1 FROM ins WHERE ins.id = a.id))
SELECT true AS done, id, type, queue, attempt, started_at, meta->>'traceparent' AS traceparent,
       NULL::text AS state, NULL::text AS lease_owner, NULL::timestamptz AS lease_expires_at,
       NULL::uuid AS workflow_id
FROM ins
UNION ALL
SELECT false, f.id, NULL, NULL, NULL, NULL, NULL, f.state, f.lease_owner, f.lease_expires_at, f.workflow_id
FROM job_facts((SELECT array_agg(r.id) FROM refused r)) f;

-- JobSql.COMPLETE_STEP
WITH fin AS (DELETE FROM jobs j USING unnest((SELECT $1::uuid[]), (SELECT $2::text[]), (SELECT $3::text[])) AS a(id, result, worker) WHERE j.id = a.id AND j.state = ANY((SELECT $5::text[]) COLLATE "C") AND j.lease_expires_at > (SELECT $4::timestamptz)
  AND (a.worker IS NULL OR j.lease_owner IS NULL OR j.lease_owner = a.worker) AND j.workflow_id IS NOT NULL RETURNING j.*, a.result AS x_result),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'completed' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, NULL AS error, fin.errors AS errors, fin.run AS run, fin.x_result::jsonb AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, $4::timestamptz AS completed_at, fin.cancelled_at AS cancelled_at, fin.discarded_at AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, NULL AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'completed' WHEN 'completed' THEN $4::timestamptz WHEN 'cancelled' THEN fin.cancelled_at ELSE fin.discarded_at END FROM fin RETURNING *),
noted AS (
    UPDATE workflows w SET started_at = ins.started_at FROM ins
    WHERE w.id = ins.workflow_id AND ins.started_at IS NOT NULL
      AND (w.started_at IS NULL OR ins.started_at < w.started_at))
SELECT id, type, queue, attempt, started_at, meta->>'traceparent' AS traceparent FROM ins;

-- JobSql.ATTEMPTS
SELECT id, type, queue, state, attempt, snoozes, run, lease_owner, lease_expires_at,
       retry_policy::text AS retry_policy, workflow_id
FROM all_jobs WHERE id = ANY($1::uuid[]);

-- JobSql.RECORD_FAILURES
WITH f AS (
    SELECT * FROM unnest($1::uuid[], $4::int4[], $5::text[], $6::text[], $7::timestamptz[], $8::int8[],
                         $9::text[], $10::bool[], $11::timestamptz[], $13::int8[], $14::text[], $15::text[])
         AS f(id, attempt, worker, state, run_at, delay_ms, entry, dead_letter, at, grp, gtype, gmsg)),
retried AS (
    UPDATE jobs j SET state = f.state, run_at = f.run_at, retry_delay_ms = f.delay_ms,
           error = f.entry::jsonb, error_group = f.grp,
           errors = jsonb_path_query_array(j.errors || f.entry::jsonb, '$[last - $k to last]',
                                           jsonb_build_object('k', $2::int - 1)),
           lease_expires_at = NULL, execution_deadline = NULL
    FROM f WHERE f.state <> 'discarded' AND j.id = f.id AND j.state = ANY($16::text[] COLLATE "C") AND j.attempt = f.attempt AND j.lease_expires_at > $3
  AND (f.worker IS NULL OR j.lease_owner IS NULL OR j.lease_owner = f.worker)
  AND (j.workflow_id IS NULL OR $12::bool)
RETURNING j.id, j.type, j.queue, j.priority, j.tags, j.state, j.attempt, j.snoozes, j.max_attempts, j.run, j.timeout_ms, j.visibility_timeout_ms, j.run_at, j.scheduled_at, j.expires_at, j.retry_delay_ms, j.dead_letter, j.created_at, j.enqueued_at, j.started_at, j.completed_at, j.cancelled_at, j.discarded_at, j.lease_owner, j.lease_expires_at, j.execution_deadline, j.lease_renewed_at, j.workflow_id, j.checkpointed, j.args::text AS args, j.meta::text AS meta, j.extensions::text AS extensions, j.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result),
fin AS (DELETE FROM jobs j USING f WHERE f.state = 'discarded' AND j.id = f.id AND j.state = ANY($16::text[] COLLATE "C") AND j.attempt = f.attempt AND j.lease_expires_at > $3
  AND (f.worker IS NULL OR j.lease_owner IS NULL OR j.lease_owner = f.worker)
  AND (j.workflow_id IS NULL OR $12::bool) RETURNING j.*, f.entry AS x_entry, f.delay_ms AS x_delay_ms, f.dead_letter AS x_dead_letter, f.at AS x_at, f.grp AS x_grp),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'discarded' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.x_entry::jsonb AS error, jsonb_path_query_array(fin.errors || fin.x_entry::jsonb, '$[last - $k to last]', jsonb_build_object('k', $2::int - 1)) AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.x_delay_ms AS retry_delay_ms, fin.x_dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.x_at AS completed_at, fin.cancelled_at AS cancelled_at, fin.x_at AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.x_grp AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'discarded' WHEN 'completed' THEN fin.x_at WHEN 'cancelled' THEN fin.cancelled_at ELSE fin.x_at END FROM fin RETURNING *),
failed AS (
    SELECT f.grp, f.gtype, f.gmsg, f.at, w.queue, w.type
    FROM (SELECT id, queue, type FROM retried UNION ALL SELECT id, queue, type FROM ins) w
    JOIN f ON f.id = w.id WHERE f.grp IS NOT NULL),
grouped AS (
    INSERT INTO error_groups AS g (id, error_type, message, failures, first_seen, last_seen, queues, types)
    SELECT grp, min(gtype), min(gmsg), count(*), min(at), max(at),
           (array_agg(DISTINCT queue))[1:20], (array_agg(DISTINCT type))[1:20]
    FROM failed GROUP BY grp ORDER BY grp
    ON CONFLICT (id) DO UPDATE SET failures = g.failures + EXCLUDED.failures,
        first_seen = least(g.first_seen, EXCLUDED.first_seen),
        last_seen = greatest(g.last_seen, EXCLUDED.last_seen),
        queues = CASE WHEN EXCLUDED.queues <@ g.queues OR cardinality(g.queues) >= 20 THEN g.queues
            ELSE (SELECT (array_agg(DISTINCT q))[1:20] FROM unnest(g.queues || EXCLUDED.queues) q) END,
        types = CASE WHEN EXCLUDED.types <@ g.types OR cardinality(g.types) >= 20 THEN g.types
            ELSE (SELECT (array_agg(DISTINCT t))[1:20] FROM unnest(g.types || EXCLUDED.types) t) END),
hourly AS (
    INSERT INTO error_group_hours AS h (group_id, hour, failures)
    SELECT grp, date_trunc('hour', at, 'UTC'), count(*) FROM failed GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (group_id, hour) DO UPDATE SET failures = h.failures + EXCLUDED.failures)
SELECT * FROM retried UNION ALL SELECT ins.id, ins.type, ins.queue, ins.priority, ins.tags, ins.state, ins.attempt, ins.snoozes, ins.max_attempts, ins.run, ins.timeout_ms, ins.visibility_timeout_ms, ins.run_at, ins.scheduled_at, ins.expires_at, ins.retry_delay_ms, ins.dead_letter, ins.created_at, ins.enqueued_at, ins.started_at, ins.completed_at, ins.cancelled_at, ins.discarded_at, ins.lease_owner, ins.lease_expires_at, ins.execution_deadline, ins.lease_renewed_at, ins.workflow_id, ins.checkpointed, ins.args::text AS args, ins.meta::text AS meta, ins.extensions::text AS extensions, ins.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result FROM ins;

-- JobSql.CANCEL
WITH fin AS (DELETE FROM jobs j  WHERE j.id = $1 AND j.state = ANY($3) RETURNING j.*),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'cancelled' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.error AS error, fin.errors AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, $2::timestamptz AS cancelled_at, fin.discarded_at AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'cancelled' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN $2::timestamptz ELSE fin.discarded_at END FROM fin RETURNING *)
SELECT fin.state AS previous_state, ins.id, ins.type, ins.queue, ins.priority, ins.tags, ins.state, ins.attempt, ins.snoozes, ins.max_attempts, ins.run, ins.timeout_ms, ins.visibility_timeout_ms, ins.run_at, ins.scheduled_at, ins.expires_at, ins.retry_delay_ms, ins.dead_letter, ins.created_at, ins.enqueued_at, ins.started_at, ins.completed_at, ins.cancelled_at, ins.discarded_at, ins.lease_owner, ins.lease_expires_at, ins.execution_deadline, ins.lease_renewed_at, ins.workflow_id, ins.checkpointed, ins.args::text AS args, ins.meta::text AS meta, ins.extensions::text AS extensions, ins.retry_policy::text AS retry_policy, ins.error::text AS error, ins.errors::text AS errors, ins.result::text AS result FROM ins JOIN fin ON fin.id = ins.id;

-- JobSql.SNOOZE
UPDATE jobs SET state = CASE WHEN $3 <= $4 THEN 'available' ELSE 'scheduled' END,
       run_at = greatest($3, $4), scheduled_at = CASE WHEN $3 <= $4 THEN scheduled_at ELSE $3 END,
       snoozes = snoozes + 1, lease_expires_at = NULL, execution_deadline = NULL
WHERE id = $1 AND state = 'active' AND lease_expires_at > $4
  AND ($2::text IS NULL OR lease_owner IS NULL OR lease_owner = $2)
RETURNING id, type, queue, priority, tags, state, attempt, snoozes, max_attempts, run, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, workflow_id, checkpointed, args::text AS args, meta::text AS meta, extensions::text AS extensions, retry_policy::text AS retry_policy, error::text AS error, errors::text AS errors, result::text AS result;

-- JobSql.ACTIVATE
UPDATE jobs SET state = 'available', run_at = $2, enqueued_at = $2 WHERE id = $1 AND state = 'pending' RETURNING id, type, queue, priority, tags, state, attempt, snoozes, max_attempts, run, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, workflow_id, checkpointed, args::text AS args, meta::text AS meta, extensions::text AS extensions, retry_policy::text AS retry_policy, error::text AS error, errors::text AS errors, result::text AS result;

-- JobSql.STATE_OF
SELECT state, lease_owner, lease_expires_at FROM all_jobs WHERE id = $1;

-- JobSql.LIST_QUEUES
SELECT name, paused, paused_at, created_at FROM queues ORDER BY name;

-- JobSql.RESET
LOCK TABLE jobs, job_history, job_progress, job_checkpoints, queues, workers, cron_jobs, cron_runs, schemas, schema_types, workflows, workflow_jobs, rate_limits, tenants, scheduling_pools, error_groups, error_group_hours, queue_minutes, queue_minute_rollup, webhook_subscriptions, webhook_deliveries IN ACCESS EXCLUSIVE MODE; TRUNCATE jobs; DELETE FROM job_history; DELETE FROM job_progress; DELETE FROM job_checkpoints; DELETE FROM queues; DELETE FROM workers; DELETE FROM cron_jobs; DELETE FROM cron_runs; DELETE FROM schemas; DELETE FROM schema_types; DELETE FROM workflows; DELETE FROM workflow_jobs; DELETE FROM rate_limits; DELETE FROM tenants; DELETE FROM scheduling_pools; DELETE FROM error_groups; DELETE FROM error_group_hours; DELETE FROM queue_minutes; DELETE FROM queue_minute_rollup; DELETE FROM webhook_subscriptions; DELETE FROM webhook_deliveries;;

-- JobSql.LOCK_UNIQUE_KEYS
SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT DISTINCT k FROM unnest($1::int8[]) AS u(k) ORDER BY k) s;

-- JobSql.UNIQUE_HOLDERS
SELECT id, unique_key, state, created_at, run_at FROM all_jobs
WHERE unique_key = ANY($1::text[]) AND state = ANY($2::text[])
ORDER BY created_at DESC LIMIT 1000;

-- JobSql.CANCEL_REPLACED
WITH fin AS (DELETE FROM jobs j  WHERE j.id = ANY($1::uuid[]) AND j.state = ANY($3) RETURNING j.*),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'cancelled' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.error AS error, fin.errors AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, $2::timestamptz AS cancelled_at, fin.discarded_at AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'cancelled' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN $2::timestamptz ELSE fin.discarded_at END FROM fin RETURNING *)
SELECT ins.id, ins.type, ins.queue, ins.priority, ins.tags, ins.state, ins.attempt, ins.snoozes, ins.max_attempts, ins.run, ins.timeout_ms, ins.visibility_timeout_ms, ins.run_at, ins.scheduled_at, ins.expires_at, ins.retry_delay_ms, ins.dead_letter, ins.created_at, ins.enqueued_at, ins.started_at, ins.completed_at, ins.cancelled_at, ins.discarded_at, ins.lease_owner, ins.lease_expires_at, ins.execution_deadline, ins.lease_renewed_at, ins.workflow_id, ins.checkpointed, ins.args::text AS args, ins.meta::text AS meta, ins.extensions::text AS extensions, ins.retry_policy::text AS retry_policy, ins.error::text AS error, ins.errors::text AS errors, ins.result::text AS result FROM ins;

-- JobSql.claimOne(10)
WITH gone AS (
    SELECT id FROM jobs
    WHERE state IN ('available', 'scheduled', 'retryable', 'pending') AND expires_at <= (SELECT $2::timestamptz) AND queue = (SELECT $1::text)
    ORDER BY expires_at
    LIMIT 10
    FOR UPDATE SKIP LOCKED),
fin AS (DELETE FROM jobs j USING gone WHERE j.id = gone.id AND j.state IN ('available', 'scheduled', 'retryable', 'pending') RETURNING j.*, jsonb_build_object('run', j.run, 'attempt', j.attempt + 1, 'type', 'expired', 'code', 'expired',
    'message', 'Expired: the job''s expires_at (' || to_char(j.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ') passed while it was ' || j.state
               || '; discarded at ' || to_char($2 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ' instead of being handed to a worker.',
    'occurred_at', to_char($2 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'timestamp', to_char($2 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'retryable', false,
    'details', jsonb_build_object('expires_at', to_char(j.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'state', j.state)) AS x_entry),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'discarded' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.x_entry AS error, jsonb_path_query_array(fin.errors || fin.x_entry, '$[last - $k to last]', jsonb_build_object('k', $5::int - 1)) AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, fin.cancelled_at AS cancelled_at, $2 AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'discarded' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN fin.cancelled_at ELSE $2 END FROM fin RETURNING *),
next AS (
    SELECT id, 1::int8 AS ord FROM jobs
    WHERE queue = (SELECT $1::text) AND state IN ('available', 'scheduled', 'retryable') AND run_at <= (SELECT $2::timestamptz) AND (expires_at IS NULL OR expires_at > (SELECT $2::timestamptz)) AND rate_limit_key IS NULL
      AND (tenant_id IS NULL OR tenant_id NOT IN (SELECT x.id FROM tenants x WHERE x.max_concurrency IS NOT NULL))
      AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = $1 AND (p.paused OR p.limited))
    ORDER BY priority DESC, run_at, id
    LIMIT 10
    FOR UPDATE SKIP LOCKED),
started AS (
UPDATE jobs j SET state = 'active', attempt = j.attempt + 1, started_at = $2, lease_owner = $3,
       lease_renewed_at = $2,
       enqueued_at = j.run_at, run_at = NULL,
       execution_deadline = $2 + j.timeout_ms * interval '1 millisecond',
       lease_expires_at = LEAST($2 + coalesce($4, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond'), lease_check_at = LEAST($2 + coalesce($4, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond')
FROM next WHERE j.id = next.id
RETURNING next.ord, j.rate_limit_key, j.id, j.type, j.queue, j.priority, j.tags, j.state, j.attempt, j.snoozes, j.max_attempts, j.run, j.timeout_ms, j.visibility_timeout_ms, j.run_at, j.scheduled_at, j.expires_at, j.retry_delay_ms, j.dead_letter, j.created_at, j.enqueued_at, j.started_at, j.completed_at, j.cancelled_at, j.discarded_at, j.lease_owner, j.lease_expires_at, j.execution_deadline, j.lease_renewed_at, j.workflow_id, j.checkpointed, j.args::text AS args, j.meta::text AS meta, j.extensions::text AS extensions, j.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result)
SELECT * FROM started
UNION ALL
SELECT NULL::int8 AS ord, ins.rate_limit_key, ins.id, ins.type, ins.queue, ins.priority, ins.tags, ins.state, ins.attempt, ins.snoozes, ins.max_attempts, ins.run, ins.timeout_ms, ins.visibility_timeout_ms, ins.run_at, ins.scheduled_at, ins.expires_at, ins.retry_delay_ms, ins.dead_letter, ins.created_at, ins.enqueued_at, ins.started_at, ins.completed_at, ins.cancelled_at, ins.discarded_at, ins.lease_owner, ins.lease_expires_at, ins.execution_deadline, ins.lease_renewed_at, ins.workflow_id, ins.checkpointed, ins.args::text AS args, ins.meta::text AS meta, ins.extensions::text AS extensions, ins.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result FROM ins;

-- JobSql.claimFrom(10)
WITH gone AS (
    SELECT id FROM jobs
    WHERE state IN ('available', 'scheduled', 'retryable', 'pending') AND expires_at <= (SELECT $2::timestamptz) AND queue = (SELECT $1::text)
    ORDER BY expires_at
    LIMIT 10
    FOR UPDATE SKIP LOCKED),
fin AS (DELETE FROM jobs j USING gone WHERE j.id = gone.id AND j.state IN ('available', 'scheduled', 'retryable', 'pending') RETURNING j.*, jsonb_build_object('run', j.run, 'attempt', j.attempt + 1, 'type', 'expired', 'code', 'expired',
    'message', 'Expired: the job''s expires_at (' || to_char(j.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ') passed while it was ' || j.state
               || '; discarded at ' || to_char($2 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ' instead of being handed to a worker.',
    'occurred_at', to_char($2 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'timestamp', to_char($2 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'retryable', false,
    'details', jsonb_build_object('expires_at', to_char(j.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'state', j.state)) AS x_entry),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'discarded' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.x_entry AS error, jsonb_path_query_array(fin.errors || fin.x_entry, '$[last - $k to last]', jsonb_build_object('k', $7::int - 1)) AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, fin.cancelled_at AS cancelled_at, $2 AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'discarded' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN fin.cancelled_at ELSE $2 END FROM fin RETURNING *),
next AS (
    SELECT id, 1::int8 AS ord FROM (
        SELECT * FROM (SELECT id FROM jobs
    WHERE priority > (SELECT $5::int4) AND queue = (SELECT $1::text) AND state IN ('available', 'scheduled', 'retryable') AND run_at <= (SELECT $2::timestamptz) AND (expires_at IS NULL OR expires_at > (SELECT $2::timestamptz)) AND rate_limit_key IS NULL
      AND (tenant_id IS NULL OR tenant_id NOT IN (SELECT x.id FROM tenants x WHERE x.max_concurrency IS NOT NULL))
      AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = $1 AND (p.paused OR p.limited))
    ORDER BY priority DESC, run_at, id
    LIMIT 10
    FOR UPDATE SKIP LOCKED) AS c
        UNION ALL
        SELECT * FROM (SELECT id FROM jobs
    WHERE priority = (SELECT $5::int4) AND (run_at, id) >= ((SELECT $6::timestamptz), '00000000-0000-0000-0000-000000000000'::uuid) AND queue = (SELECT $1::text) AND state IN ('available', 'scheduled', 'retryable') AND run_at <= (SELECT $2::timestamptz) AND (expires_at IS NULL OR expires_at > (SELECT $2::timestamptz)) AND rate_limit_key IS NULL
      AND (tenant_id IS NULL OR tenant_id NOT IN (SELECT x.id FROM tenants x WHERE x.max_concurrency IS NOT NULL))
      AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = $1 AND (p.paused OR p.limited))
    ORDER BY priority DESC, run_at, id
    LIMIT 10
    FOR UPDATE SKIP LOCKED) AS c
        UNION ALL
        SELECT * FROM (SELECT id FROM jobs
    WHERE priority < (SELECT $5::int4) AND queue = (SELECT $1::text) AND state IN ('available', 'scheduled', 'retryable') AND run_at <= (SELECT $2::timestamptz) AND (expires_at IS NULL OR expires_at > (SELECT $2::timestamptz)) AND rate_limit_key IS NULL
      AND (tenant_id IS NULL OR tenant_id NOT IN (SELECT x.id FROM tenants x WHERE x.max_concurrency IS NOT NULL))
      AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = $1 AND (p.paused OR p.limited))
    ORDER BY priority DESC, run_at, id
    LIMIT 10
    FOR UPDATE SKIP LOCKED) AS c) AS u
    LIMIT 10),
started AS (
UPDATE jobs j SET state = 'active', attempt = j.attempt + 1, started_at = $2, lease_owner = $3,
       lease_renewed_at = $2,
       enqueued_at = j.run_at, run_at = NULL,
       execution_deadline = $2 + j.timeout_ms * interval '1 millisecond',
       lease_expires_at = LEAST($2 + coalesce($4, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond'), lease_check_at = LEAST($2 + coalesce($4, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond')
FROM next WHERE j.id = next.id
RETURNING next.ord, j.rate_limit_key, j.id, j.type, j.queue, j.priority, j.tags, j.state, j.attempt, j.snoozes, j.max_attempts, j.run, j.timeout_ms, j.visibility_timeout_ms, j.run_at, j.scheduled_at, j.expires_at, j.retry_delay_ms, j.dead_letter, j.created_at, j.enqueued_at, j.started_at, j.completed_at, j.cancelled_at, j.discarded_at, j.lease_owner, j.lease_expires_at, j.execution_deadline, j.lease_renewed_at, j.workflow_id, j.checkpointed, j.args::text AS args, j.meta::text AS meta, j.extensions::text AS extensions, j.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result)
SELECT * FROM started
UNION ALL
SELECT NULL::int8 AS ord, ins.rate_limit_key, ins.id, ins.type, ins.queue, ins.priority, ins.tags, ins.state, ins.attempt, ins.snoozes, ins.max_attempts, ins.run, ins.timeout_ms, ins.visibility_timeout_ms, ins.run_at, ins.scheduled_at, ins.expires_at, ins.retry_delay_ms, ins.dead_letter, ins.created_at, ins.enqueued_at, ins.started_at, ins.completed_at, ins.cancelled_at, ins.discarded_at, ins.lease_owner, ins.lease_expires_at, ins.execution_deadline, ins.lease_renewed_at, ins.workflow_id, ins.checkpointed, ins.args::text AS args, ins.meta::text AS meta, ins.extensions::text AS extensions, ins.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result FROM ins;

-- JobSql.claimQueues(10)
WITH gone AS (
    SELECT id FROM jobs
    WHERE state IN ('available', 'scheduled', 'retryable', 'pending') AND expires_at <= (SELECT $2::timestamptz) AND queue = ANY((SELECT $1::text[])::text[])
    ORDER BY expires_at
    LIMIT 10
    FOR UPDATE SKIP LOCKED),
fin AS (DELETE FROM jobs j USING gone WHERE j.id = gone.id AND j.state IN ('available', 'scheduled', 'retryable', 'pending') RETURNING j.*, jsonb_build_object('run', j.run, 'attempt', j.attempt + 1, 'type', 'expired', 'code', 'expired',
    'message', 'Expired: the job''s expires_at (' || to_char(j.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ') passed while it was ' || j.state
               || '; discarded at ' || to_char($2 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ' instead of being handed to a worker.',
    'occurred_at', to_char($2 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'timestamp', to_char($2 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'retryable', false,
    'details', jsonb_build_object('expires_at', to_char(j.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'state', j.state)) AS x_entry),
ins AS (INSERT INTO job_history (id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy, error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id, rate_limit_key, tenant_id, error_group, checkpointed, lease_check_at, finished_at)
    SELECT fin.id AS id, fin.type AS type, fin.queue AS queue, fin.args AS args, fin.meta AS meta, fin.extensions AS extensions, fin.priority AS priority, fin.tags AS tags, 'discarded' AS state, fin.attempt AS attempt, fin.snoozes AS snoozes, fin.max_attempts AS max_attempts, fin.retry_policy AS retry_policy, fin.x_entry AS error, jsonb_path_query_array(fin.errors || fin.x_entry, '$[last - $k to last]', jsonb_build_object('k', $5::int - 1)) AS errors, fin.run AS run, fin.result AS result, fin.timeout_ms AS timeout_ms, fin.visibility_timeout_ms AS visibility_timeout_ms, NULL AS run_at, fin.scheduled_at AS scheduled_at, fin.expires_at AS expires_at, fin.retry_delay_ms AS retry_delay_ms, fin.dead_letter AS dead_letter, fin.created_at AS created_at, fin.enqueued_at AS enqueued_at, fin.started_at AS started_at, fin.completed_at AS completed_at, fin.cancelled_at AS cancelled_at, $2 AS discarded_at, fin.lease_owner AS lease_owner, NULL AS lease_expires_at, NULL AS execution_deadline, fin.lease_renewed_at AS lease_renewed_at, fin.unique_key AS unique_key, fin.workflow_id AS workflow_id, fin.rate_limit_key AS rate_limit_key, fin.tenant_id AS tenant_id, fin.error_group AS error_group, fin.checkpointed AS checkpointed, NULL AS lease_check_at, CASE 'discarded' WHEN 'completed' THEN fin.completed_at WHEN 'cancelled' THEN fin.cancelled_at ELSE $2 END FROM fin RETURNING *),
next AS (
    SELECT c.id, r.ord FROM unnest((SELECT $1::text[])) WITH ORDINALITY AS r(q, ord)
    CROSS JOIN LATERAL (
        SELECT id, priority, run_at FROM jobs
        WHERE queue = r.q AND state IN ('available', 'scheduled', 'retryable') AND run_at <= (SELECT $2::timestamptz) AND (expires_at IS NULL OR expires_at > (SELECT $2::timestamptz)) AND rate_limit_key IS NULL
          AND (tenant_id IS NULL OR tenant_id NOT IN (SELECT x.id FROM tenants x WHERE x.max_concurrency IS NOT NULL))
          AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND (p.paused OR p.limited))
        ORDER BY priority DESC, run_at, id
        LIMIT 10
        FOR UPDATE SKIP LOCKED) c
    ORDER BY r.ord, c.priority DESC, c.run_at, c.id
    LIMIT 10),
started AS (
UPDATE jobs j SET state = 'active', attempt = j.attempt + 1, started_at = $2, lease_owner = $3,
       lease_renewed_at = $2,
       enqueued_at = j.run_at, run_at = NULL,
       execution_deadline = $2 + j.timeout_ms * interval '1 millisecond',
       lease_expires_at = LEAST($2 + coalesce($4, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond'), lease_check_at = LEAST($2 + coalesce($4, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond')
FROM next WHERE j.id = next.id
RETURNING next.ord, j.rate_limit_key, j.id, j.type, j.queue, j.priority, j.tags, j.state, j.attempt, j.snoozes, j.max_attempts, j.run, j.timeout_ms, j.visibility_timeout_ms, j.run_at, j.scheduled_at, j.expires_at, j.retry_delay_ms, j.dead_letter, j.created_at, j.enqueued_at, j.started_at, j.completed_at, j.cancelled_at, j.discarded_at, j.lease_owner, j.lease_expires_at, j.execution_deadline, j.lease_renewed_at, j.workflow_id, j.checkpointed, j.args::text AS args, j.meta::text AS meta, j.extensions::text AS extensions, j.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result)
SELECT * FROM started
UNION ALL
SELECT NULL::int8 AS ord, ins.rate_limit_key, ins.id, ins.type, ins.queue, ins.priority, ins.tags, ins.state, ins.attempt, ins.snoozes, ins.max_attempts, ins.run, ins.timeout_ms, ins.visibility_timeout_ms, ins.run_at, ins.scheduled_at, ins.expires_at, ins.retry_delay_ms, ins.dead_letter, ins.created_at, ins.enqueued_at, ins.started_at, ins.completed_at, ins.cancelled_at, ins.discarded_at, ins.lease_owner, ins.lease_expires_at, ins.execution_deadline, ins.lease_renewed_at, ins.workflow_id, ins.checkpointed, ins.args::text AS args, ins.meta::text AS meta, ins.extensions::text AS extensions, ins.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result FROM ins;
