-- The statements of store TenantStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- TenantStore.TENANT_QUEUES
WITH RECURSIVE p AS (
    (SELECT queue, tenant_id FROM jobs
     WHERE tenant_id IS NOT NULL AND state IN ('available', 'scheduled', 'retryable')
     ORDER BY queue, tenant_id LIMIT 1)
  UNION ALL
    SELECT x.queue, x.tenant_id FROM p CROSS JOIN LATERAL (
        SELECT queue, tenant_id FROM jobs
        WHERE tenant_id IS NOT NULL AND state IN ('available', 'scheduled', 'retryable')
          AND (queue, tenant_id) > (p.queue, p.tenant_id)
        ORDER BY queue, tenant_id LIMIT 1) x)
SELECT queue, tenant_id FROM p LIMIT 100000;

-- TenantStore.LIVE_COUNTS
SELECT state, count(*) AS n FROM jobs WHERE tenant_id = $1 AND ($2::text IS NULL OR queue = $2)
GROUP BY state;

-- TenantStore.FINISHED_COUNTS
SELECT state, dead_letter, count(*) AS n FROM job_history
WHERE tenant_id = $1 AND ($2::timestamptz IS NULL OR finished_at >= $2)
  AND ($3::text IS NULL OR queue = $3)
GROUP BY state, dead_letter;

-- TenantStore.LIST_TENANTS
SELECT t.id, s.state, coalesce(s.n, 0) AS n FROM (
    SELECT DISTINCT tenant_id AS id FROM jobs WHERE tenant_id IS NOT NULL
    UNION SELECT id FROM tenants) t
LEFT JOIN (SELECT tenant_id, state, count(*) AS n FROM jobs WHERE tenant_id IS NOT NULL
           GROUP BY tenant_id, state) s ON s.tenant_id = t.id
ORDER BY t.id LIMIT 10000;

-- TenantStore.FIND_CONFIG
SELECT id, fairness_weight, max_queue_depth, max_concurrency, max_scheduled, max_enqueue_rate_limit, max_enqueue_rate_period_ms, created_at, updated_at FROM tenants WHERE id = $1;

-- TenantStore.UPSERT_CONFIG
INSERT INTO tenants (id, fairness_weight, max_queue_depth, max_concurrency, max_scheduled,
                     max_enqueue_rate_limit, max_enqueue_rate_period_ms, created_at, updated_at)
VALUES ($1, $2, $3, $5, $6, $7, $8, $4, $4)
ON CONFLICT (id) DO UPDATE SET fairness_weight = $2, max_queue_depth = $3, max_concurrency = $5,
       max_scheduled = $6, max_enqueue_rate_limit = $7, max_enqueue_rate_period_ms = $8,
       enqueue_tokens = NULL, enqueue_tokens_at = NULL, updated_at = $4
RETURNING id, fairness_weight, max_queue_depth, max_concurrency, max_scheduled, max_enqueue_rate_limit, max_enqueue_rate_period_ms, created_at, updated_at;

-- TenantStore.DELETE_CONFIG
DELETE FROM tenants WHERE id = $1;

-- TenantStore.CONCURRENCY_LIMITED
SELECT id FROM tenants WHERE max_concurrency IS NOT NULL;
