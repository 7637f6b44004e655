-- The statements of store SchedulingStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- SchedulingStore.DISPATCHES
WITH d AS (
    SELECT queue, tenant_id, started_at, enqueued_at FROM jobs WHERE state = 'active' AND started_at >= $1
    UNION ALL
    SELECT queue, tenant_id, started_at, enqueued_at FROM job_history
    WHERE finished_at >= $1 AND started_at >= $1)
SELECT queue, tenant_id, count(*) AS n,
       coalesce(avg(extract(epoch FROM started_at - enqueued_at) * 1000), 0)::float8 AS wait_ms
FROM d GROUP BY queue, tenant_id ORDER BY queue, tenant_id;

-- SchedulingStore.ACTIVE
SELECT queue, count(*) AS n FROM jobs WHERE state = 'active' GROUP BY queue;

-- SchedulingStore.LIST_POOLS
SELECT name, strategy, queues, weights::text AS weights, concurrency, created_at, updated_at
FROM scheduling_pools ORDER BY name;

-- SchedulingStore.FIND_POOL
SELECT name, strategy, queues, weights::text AS weights, concurrency, created_at, updated_at
FROM scheduling_pools WHERE name = $1;

-- SchedulingStore.UPSERT_POOL
INSERT INTO scheduling_pools (name, strategy, queues, weights, concurrency, created_at, updated_at)
VALUES ($1, $2, $3, $4::text::jsonb, $5, $6, $6)
ON CONFLICT (name) DO UPDATE SET strategy = $2, queues = $3, weights = $4::text::jsonb, concurrency = $5,
    updated_at = $6
RETURNING name, strategy, queues, weights::text AS weights, concurrency, created_at, updated_at;

-- SchedulingStore.DELETE_POOL
DELETE FROM scheduling_pools WHERE name = $1;
