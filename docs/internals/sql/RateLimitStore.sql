-- The statements of store RateLimitStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- RateLimitStore.RECORD_POLICIES
WITH p AS (
    SELECT * FROM unnest($1::text[], $2::int4[], $3::int4[], $4::int8[], $5::int4[], $6::int8[])
         AS p(key, concurrency, rate_limit, rate_period_ms, throttle_limit, throttle_period_ms)),
ins AS (
    INSERT INTO rate_limits (key, concurrency, rate_limit, rate_period_ms, throttle_limit,
                             throttle_period_ms, updated_at)
    SELECT p.*, $7 FROM p ON CONFLICT (key) DO NOTHING RETURNING key)
UPDATE rate_limits r SET concurrency = p.concurrency, rate_limit = p.rate_limit,
       rate_period_ms = p.rate_period_ms, throttle_limit = p.throttle_limit,
       throttle_period_ms = p.throttle_period_ms, updated_at = $7,
       starts = CASE WHEN p.rate_limit IS NULL THEN '{}' ELSE r.starts END
FROM p WHERE r.key = p.key AND NOT EXISTS (SELECT 1 FROM ins WHERE ins.key = p.key)
  AND (r.concurrency, r.rate_limit, r.rate_period_ms, r.throttle_limit, r.throttle_period_ms)
      IS DISTINCT FROM (p.concurrency, p.rate_limit, p.rate_period_ms, p.throttle_limit,
                        p.throttle_period_ms);

-- RateLimitStore.WAITING_KEYS
SELECT DISTINCT ON (rate_limit_key) rate_limit_key, queue, type FROM jobs
WHERE rate_limit_key IS NOT NULL AND queue = ANY($1::text[])
  AND state IN ('available', 'scheduled', 'retryable') AND run_at <= $2 AND (expires_at IS NULL OR expires_at > $2)
ORDER BY rate_limit_key;

-- RateLimitStore.LOCK_KEYS
SELECT key, concurrency, rate_limit, rate_period_ms, throttle_limit, throttle_period_ms, starts,
       last_started_at
FROM rate_limits WHERE key = ANY($1::text[]) ORDER BY key FOR UPDATE SKIP LOCKED;

-- RateLimitStore.ACTIVE_BY_KEY
SELECT rate_limit_key, count(*) FROM jobs
WHERE rate_limit_key = ANY($1::text[]) AND state = 'active' GROUP BY rate_limit_key;

-- RateLimitStore.RECORD_STARTS
UPDATE rate_limits SET starts = $2, last_started_at = $3 WHERE key = $1;

-- RateLimitStore.KEYED_QUEUES
WITH RECURSIVE q AS (
    (SELECT queue FROM jobs WHERE rate_limit_key IS NOT NULL ORDER BY queue LIMIT 1)
    UNION ALL
    SELECT (SELECT j.queue FROM jobs j WHERE j.rate_limit_key IS NOT NULL AND j.queue > q.queue
            ORDER BY j.queue LIMIT 1)
    FROM q WHERE q.queue IS NOT NULL)
SELECT queue FROM q WHERE queue IS NOT NULL;

-- RateLimitStore.INSPECT
SELECT key, concurrency, rate_limit, rate_period_ms, throttle_limit, throttle_period_ms, starts,
       last_started_at,
       (SELECT count(*) FROM jobs j WHERE j.rate_limit_key = r.key AND j.state = 'active') AS active,
       (SELECT count(*) FROM jobs j WHERE j.rate_limit_key = r.key AND j.state = 'available') AS waiting
FROM rate_limits r WHERE key = $1;
