-- Per-key rate limits (ojs-rate-limiting.md 6: options.rate_limit with a key). A job that names a key carries it in
-- rate_limit_key; every other job leaves it NULL, which costs a bit of the row's null bitmap and nothing else:
--   * the claim for jobs without a key adds "rate_limit_key IS NULL" to the rows it already reads;
--   * both indexes below are partial on rate_limit_key IS NOT NULL, so such a job never enters them, and neither
--     column they hold beyond the claim index's own (queue, priority, run_at, id) ever changes, so no update that
--     was HOT before stops being one.
-- The limits and what the sliding window and the throttle remember live in rate_limits, one small row per key, read
-- and locked only by claims of keyed jobs (store.RateLimitStore).

ALTER TABLE jobs ADD COLUMN rate_limit_key text;
ALTER TABLE job_history ADD COLUMN rate_limit_key text;

-- The keyed claim: a key's claimable jobs of one queue in claim order (and the key's active and waiting counts).
CREATE INDEX jobs_rate_limit_claim_idx ON jobs (rate_limit_key, queue, priority DESC, run_at, id)
    WHERE rate_limit_key IS NOT NULL;
-- Which keys have jobs in the queues a FETCH names, and which queues hold keyed jobs at all.
CREATE INDEX jobs_rate_limit_queue_idx ON jobs (queue, rate_limit_key) WHERE rate_limit_key IS NOT NULL;

-- One row per key: its limits (the newest PUSH naming the key sets them) and its partition's memory. starts: the
-- start instants the sliding window still counts, oldest first, at most rate_limit of them.
CREATE TABLE rate_limits (
    key                text PRIMARY KEY,
    concurrency        integer CHECK (concurrency IS NULL OR concurrency >= 0),
    rate_limit         integer CHECK (rate_limit IS NULL OR rate_limit >= 0),
    rate_period_ms     bigint CHECK (rate_period_ms IS NULL OR rate_period_ms > 0),
    throttle_limit     integer CHECK (throttle_limit IS NULL OR throttle_limit >= 0),
    throttle_period_ms bigint CHECK (throttle_period_ms IS NULL OR throttle_period_ms > 0),
    starts             timestamptz[] NOT NULL DEFAULT '{}',
    last_started_at    timestamptz,
    updated_at         timestamptz NOT NULL,
    CONSTRAINT rate_needs_period CHECK ((rate_limit IS NULL) = (rate_period_ms IS NULL)),
    CONSTRAINT throttle_needs_period CHECK ((throttle_limit IS NULL) = (throttle_period_ms IS NULL))
);

-- all_jobs gains the column: the view is rebuilt from the live table's own column list, so any column another
-- migration added before this one is kept, in table order (CREATE OR REPLACE VIEW only appends).
DO $$
DECLARE
    cols text;
BEGIN
    SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO cols
    FROM pg_attribute WHERE attrelid = 'jobs'::regclass AND attnum > 0 AND NOT attisdropped;
    EXECUTE format('CREATE OR REPLACE VIEW all_jobs AS SELECT %s FROM jobs UNION ALL SELECT %s FROM job_history',
                   cols, cols);
END
$$;
