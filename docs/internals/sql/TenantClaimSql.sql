-- The statements of store TenantClaimSql, rendered by RenderedSqlTest from the code: do not edit by hand.

-- TenantClaimSql.CLAIM_OF_TENANT
WITH next AS (
    SELECT c.id, r.ord FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
    CROSS JOIN LATERAL (
        SELECT id, priority, run_at FROM jobs
        WHERE queue = r.q AND state IN ('available', 'scheduled', 'retryable') AND run_at <= $2 AND (expires_at IS NULL OR expires_at > $2) AND rate_limit_key IS NULL AND tenant_id = $6 AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND (p.paused OR p.limited)) AND NOT EXISTS (SELECT 1 FROM tenants x WHERE x.id = $6 AND x.max_concurrency IS NOT NULL)
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

-- TenantClaimSql.CLAIM_OF_LIMITED_TENANT
WITH next AS (
    SELECT c.id, r.ord FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
    CROSS JOIN LATERAL (
        SELECT id, priority, run_at FROM jobs
        WHERE queue = r.q AND state IN ('available', 'scheduled', 'retryable') AND run_at <= $2 AND (expires_at IS NULL OR expires_at > $2) AND rate_limit_key IS NULL AND tenant_id = $6 AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND (p.paused OR p.limited)) AND true
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

-- TenantClaimSql.CLAIM_TENANTS_IN_LIMITED_QUEUE
WITH allowed AS (SELECT * FROM unnest($6::text[], $7::int4[]) AS a(t, n)),
cand AS (
    SELECT c.id, c.priority, c.run_at, r.ord, a.t FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
    CROSS JOIN allowed a
    CROSS JOIN LATERAL (
        SELECT id, priority, run_at FROM jobs
        WHERE queue = r.q AND state IN ('available', 'scheduled', 'retryable') AND run_at <= $2 AND (expires_at IS NULL OR expires_at > $2) AND rate_limit_key IS NULL AND tenant_id = a.t
          AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND p.paused)
        ORDER BY priority DESC, run_at, id
        LIMIT least(a.n, $3)
        FOR UPDATE SKIP LOCKED) c),
capped AS (
    SELECT x.id, x.priority, x.run_at, x.ord FROM (
        SELECT cand.*, row_number() OVER (PARTITION BY cand.t
                                          ORDER BY cand.ord, cand.priority DESC, cand.run_at, cand.id) AS rn
        FROM cand) x
    JOIN allowed a ON a.t = x.t WHERE x.rn <= a.n),
next AS (SELECT id, ord FROM capped ORDER BY ord, priority DESC, run_at, id LIMIT $3)
UPDATE jobs j SET state = 'active', attempt = j.attempt + 1, started_at = $2, lease_owner = $4,
       lease_renewed_at = $2,
       enqueued_at = j.run_at, run_at = NULL,
       execution_deadline = $2 + j.timeout_ms * interval '1 millisecond',
       lease_expires_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond'), lease_check_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond')
FROM next WHERE j.id = next.id
RETURNING next.ord, j.rate_limit_key, j.id, j.type, j.queue, j.priority, j.tags, j.state, j.attempt, j.snoozes, j.max_attempts, j.run, j.timeout_ms, j.visibility_timeout_ms, j.run_at, j.scheduled_at, j.expires_at, j.retry_delay_ms, j.dead_letter, j.created_at, j.enqueued_at, j.started_at, j.completed_at, j.cancelled_at, j.discarded_at, j.lease_owner, j.lease_expires_at, j.execution_deadline, j.lease_renewed_at, j.workflow_id, j.checkpointed, j.args::text AS args, j.meta::text AS meta, j.extensions::text AS extensions, j.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result;

-- TenantClaimSql.CLAIM_FAIR
WITH qs AS (
    SELECT r.q, r.ord FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
    WHERE NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND (p.paused OR p.limited))),
allowed AS (SELECT * FROM unnest($8::text[], $9::int4[]) AS a(t, n)),
ten AS (SELECT g.q, g.t, g.turn, a.n AS cap
        FROM unnest($6::text[], $7::text[]) WITH ORDINALITY AS g(q, t, turn)
        LEFT JOIN allowed a ON a.t = g.t),
picked AS (
    SELECT c.id, c.priority, c.run_at, qs.ord, ten.t AS k, ten.turn, ten.cap,
           row_number() OVER (PARTITION BY ten.turn, c.priority ORDER BY c.run_at, c.id) AS rn
    FROM ten JOIN qs ON qs.q = ten.q CROSS JOIN LATERAL (
        SELECT id, priority, run_at FROM jobs
        WHERE queue = ten.q AND state IN ('available', 'scheduled', 'retryable') AND run_at <= $2 AND (expires_at IS NULL OR expires_at > $2) AND rate_limit_key IS NULL AND tenant_id = ten.t AND (ten.cap IS NOT NULL OR NOT EXISTS (SELECT 1 FROM tenants x WHERE x.id = ten.t AND x.max_concurrency IS NOT NULL))
        ORDER BY priority DESC, run_at, id
        LIMIT least($3, coalesce(ten.cap, $3))
        FOR UPDATE SKIP LOCKED) c),
capped AS (
    SELECT p.id, p.priority, p.run_at, p.ord, p.k, p.turn, p.rn FROM (
        SELECT picked.*, row_number() OVER (PARTITION BY picked.k
                                            ORDER BY picked.ord, picked.priority DESC, picked.run_at,
                                                     picked.id) AS crn
        FROM picked) p
    WHERE p.cap IS NULL OR p.crn <= p.cap),
plain AS (
    SELECT c.id, c.priority, c.run_at, qs.ord, ''::text AS k, 2147483647::bigint AS turn,
           row_number() OVER (PARTITION BY qs.ord, c.priority ORDER BY c.run_at, c.id) AS rn
    FROM qs CROSS JOIN LATERAL (
        SELECT id, priority, run_at, tenant_id FROM jobs
        WHERE queue = qs.q AND state IN ('available', 'scheduled', 'retryable') AND run_at <= $2 AND (expires_at IS NULL OR expires_at > $2) AND rate_limit_key IS NULL
        ORDER BY priority DESC, run_at, id
        LIMIT $3
        FOR UPDATE SKIP LOCKED) c
    WHERE c.tenant_id IS NULL),
ranked AS (
    SELECT u.id, u.ord, u.k, row_number() OVER (
               ORDER BY u.ord, u.priority DESC, (u.rn - 1) / coalesce(w.fairness_weight, 1), u.turn,
                        u.run_at, u.id) AS pos
    FROM (SELECT * FROM capped UNION ALL SELECT * FROM plain) u
    LEFT JOIN tenants w ON w.id = u.k),
next AS (SELECT id, ord, k, pos FROM ranked WHERE pos <= $3)
UPDATE jobs j SET state = 'active', attempt = j.attempt + 1, started_at = $2, lease_owner = $4,
       lease_renewed_at = $2,
       enqueued_at = j.run_at, run_at = NULL,
       execution_deadline = $2 + j.timeout_ms * interval '1 millisecond',
       lease_expires_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond'), lease_check_at = LEAST($2 + coalesce($5, j.visibility_timeout_ms) * interval '1 millisecond',
      $2 + j.timeout_ms * interval '1 millisecond')
FROM next WHERE j.id = next.id
RETURNING next.ord, next.pos, next.k, j.rate_limit_key, j.id, j.type, j.queue, j.priority, j.tags, j.state, j.attempt, j.snoozes, j.max_attempts, j.run, j.timeout_ms, j.visibility_timeout_ms, j.run_at, j.scheduled_at, j.expires_at, j.retry_delay_ms, j.dead_letter, j.created_at, j.enqueued_at, j.started_at, j.completed_at, j.cancelled_at, j.discarded_at, j.lease_owner, j.lease_expires_at, j.execution_deadline, j.lease_renewed_at, j.workflow_id, j.checkpointed, j.args::text AS args, j.meta::text AS meta, j.extensions::text AS extensions, j.retry_policy::text AS retry_policy, NULL::text AS error, NULL::text AS errors, NULL::text AS result;
