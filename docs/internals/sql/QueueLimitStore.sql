-- The statements of store QueueLimitStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- QueueLimitStore.SET_LIMITS
INSERT INTO queues (name, created_at, rate_limit, rate_period_ms, concurrency) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (name) DO UPDATE SET rate_limit = $3, rate_period_ms = $4, concurrency = $5,
       rate_starts = CASE WHEN $3::int IS NULL THEN '{}' ELSE queues.rate_starts END
RETURNING name, rate_limit, rate_period_ms, concurrency;

-- QueueLimitStore.FIND_LIMITS
SELECT name, rate_limit, rate_period_ms, concurrency FROM queues WHERE name = $1;

-- QueueLimitStore.LIMITED_QUEUES
SELECT name FROM queues WHERE limited;

-- QueueLimitStore.LOCK_LIMITS
SELECT rate_limit, rate_period_ms, concurrency, rate_starts FROM queues WHERE name = $1 FOR UPDATE;

-- QueueLimitStore.COUNT_ACTIVE
SELECT count(*) FROM jobs WHERE state = 'active' AND queue = $1;

-- QueueLimitStore.RECORD_STARTS
UPDATE queues SET rate_starts = $2 WHERE name = $1;
