-- Seeds a Steadfast database with realistic jobs for console timing (docs/operations/console.md > performance):
--
--   psql "$URL" -v rows=1000000 -f scripts/seed-jobs.sql
--
-- Run it against a migrated database (start the server once first). It adds `rows` jobs (default 1,000,000) over
-- the last six days, 5% of them in the last hour so the overview's chart has traffic: ~78% completed, 6% available,
-- 3% scheduled, 2% retryable, 1% active, 0.2% pending, 2.8% cancelled, 6% discarded and 1% dead letters, in eight
-- queues with a few types each; failed jobs carry an error history with backtraces. Live jobs go to the live table
-- (jobs), finished ones to the history (job_history, in the day partitions this script makes sure exist).
-- Secondary indexes of both are dropped for the bulk insert and rebuilt from their own definitions afterwards (so
-- they always match the migrations), then the tables are vacuumed and analyzed. Retryable jobs come due and active leases run out only after the
-- timing run (10 minutes and 2 hours on). About five minutes per million rows on a busy 2-core machine.
-- To group the seeded failures into error groups (V25) afterwards: scripts/seed-error-groups.sql.
\set ON_ERROR_STOP on
\if :{?rows}
\else
  \set rows 1000000
\endif
SET maintenance_work_mem = '512MB';
SET synchronous_commit = off;

CREATE TEMP TABLE saved_indexes AS
  SELECT indexname, indexdef FROM pg_indexes
  WHERE schemaname = current_schema() AND tablename IN ('jobs', 'job_history', 'job_history_dead')
    AND indexname <> 'jobs_pkey'
    -- a partition's search and filter indexes (V31, V32) stay: a running server's SearchIndexer may build them while
    -- this runs
    AND indexname !~ '_(search|state_created|queue_created|type_created|tags)_idx$'
    -- a partition's copy of a partitioned index goes and comes back with its parent
    AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = format('%I', indexname)::regclass);
DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT indexname FROM saved_indexes LOOP EXECUTE format('DROP INDEX %I', r.indexname); END LOOP;
END $$;

SELECT count(*) FILTER (WHERE steadfast_history_partition(d::date)) AS partitions_created
FROM generate_series((now() - interval '7 days') AT TIME ZONE 'UTC', (now() + interval '1 day') AT TIME ZONE 'UTC',
                     interval '1 day') d;

CREATE TEMP TABLE seed_jobs (LIKE jobs INCLUDING DEFAULTS);

INSERT INTO queues (name, created_at)
SELECT q, now() - interval '30 days'
FROM unnest(ARRAY['default','email','billing','reports','webhooks','media','search-index','notifications']) q
ON CONFLICT (name) DO NOTHING;

WITH base AS (
  SELECT i,
         -- deterministic per-row "random" numbers in [0,1)
         ('x' || substr(md5(i::text), 1, 8))::bit(32)::bigint / 4294967296.0 AS r1,
         ('x' || substr(md5(i::text), 9, 8))::bit(32)::bigint / 4294967296.0 AS r2,
         ('x' || substr(md5(i::text), 17, 8))::bit(32)::bigint / 4294967296.0 AS r3
  FROM generate_series(1, :rows) i
), shaped AS (
  SELECT i, r1, r2, r3,
         (ARRAY['default','email','email','email','billing','reports','webhooks','webhooks','media','search-index','notifications'])[1 + (i % 11)] AS queue,
         CASE WHEN r2 < 0.05 THEN now() - r3 * interval '1 hour'
              ELSE now() - interval '1 hour' - r3 * interval '6 days' END AS created_at,
         CASE WHEN r1 < 0.78 THEN 'completed' WHEN r1 < 0.84 THEN 'available' WHEN r1 < 0.87 THEN 'scheduled'
              WHEN r1 < 0.89 THEN 'retryable' WHEN r1 < 0.90 THEN 'active' WHEN r1 < 0.902 THEN 'pending'
              WHEN r1 < 0.93 THEN 'cancelled' ELSE 'discarded' END AS state,
         r1 >= 0.99 AS dead_letter
  FROM base
), typed AS (
  SELECT s.*,
         CASE s.queue
           WHEN 'email' THEN (ARRAY['email.send','email.digest','email.bounce-check'])[1 + (i / 11) % 3]
           WHEN 'billing' THEN (ARRAY['invoice.charge','invoice.refund','subscription.renew'])[1 + (i / 11) % 3]
           WHEN 'reports' THEN (ARRAY['report.generate','report.export'])[1 + (i / 11) % 2]
           WHEN 'webhooks' THEN 'webhook.deliver'
           WHEN 'media' THEN (ARRAY['image.resize','video.transcode'])[1 + (i / 11) % 2]
           WHEN 'search-index' THEN 'search.reindex'
           WHEN 'notifications' THEN (ARRAY['push.send','sms.send'])[1 + (i / 11) % 2]
           ELSE 'maintenance.cleanup' END AS type,
         CASE WHEN s.state IN ('retryable', 'discarded') OR (s.state = 'completed' AND s.r3 < 0.05) THEN 1 + (i % 3)
              ELSE 0 END AS failures,
         (ARRAY['ConnectionTimeout','RateLimitExceeded','SmtpError','CardDeclined','HttpError','ValidationError','NotFound'])[1 + (i % 7)] AS etype
  FROM shaped s
)
INSERT INTO seed_jobs (id, type, queue, args, meta, priority, tags, state, attempt, max_attempts, retry_policy, error,
                  errors, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, dead_letter, created_at, enqueued_at,
                  started_at, completed_at, cancelled_at, discarded_at, lease_owner, lease_expires_at,
                  execution_deadline, lease_renewed_at)
SELECT
  (lpad(to_hex((extract(epoch FROM t.created_at) * 1000)::bigint), 12, '0') || '7' || substr(md5('id' || i), 1, 3)
     || '8' || substr(md5('id' || i), 4, 15))::uuid,
  t.type, t.queue,
  CASE t.queue
    WHEN 'email' THEN jsonb_build_array('user' || (i % 200000) || '@example.com', 'welcome', jsonb_build_object('locale', 'en'))
    WHEN 'billing' THEN jsonb_build_array(jsonb_build_object('invoice_id', 'inv_' || i, 'amount_cents', 100 + i % 90000, 'currency', 'EUR'))
    WHEN 'webhooks' THEN jsonb_build_array(jsonb_build_object('url', 'https://hooks.example.net/t/' || (i % 5000), 'event', 'order.paid', 'order', 'ord_' || i))
    WHEN 'media' THEN jsonb_build_array(jsonb_build_object('key', 'uploads/' || md5(i::text) || '.png', 'width', 640))
    ELSE jsonb_build_array(i, 'batch-' || (i % 1000)) END,
  jsonb_build_object('tenant', 'tenant-' || (i % 300), 'trace_id', md5('t' || i)),
  CASE WHEN i % 50 = 0 THEN 10 ELSE 0 END,
  CASE WHEN i % 20 = 0 THEN ARRAY['vip'] WHEN i % 7 = 0 THEN ARRAY['tenant-' || (i % 300)] ELSE '{}' END,
  t.state,
  CASE WHEN t.state IN ('available', 'scheduled', 'pending', 'cancelled') THEN 0
       WHEN t.state = 'active' THEN 1 ELSE greatest(1, t.failures + (t.state = 'completed')::int) END,
  CASE WHEN t.dead_letter OR t.state = 'discarded' THEN greatest(1, t.failures) ELSE 5 END,
  jsonb_build_object('max_attempts', 5, 'initial_interval', 'PT1S', 'backoff_coefficient', 2.0, 'max_interval', 'PT5M',
                     'jitter', true, 'non_retryable_errors', '[]'::jsonb,
                     'on_exhaustion', CASE WHEN t.dead_letter THEN 'dead_letter' ELSE 'discard' END,
                     'backoff_strategy', 'exponential'),
  CASE WHEN t.state IN ('retryable', 'discarded') THEN e.last END,
  coalesce(e.hist, '[]'::jsonb),
  10800000, 7200000,
  CASE t.state WHEN 'available' THEN t.created_at WHEN 'scheduled' THEN now() + t.r3 * interval '2 hours'
               WHEN 'retryable' THEN now() + interval '10 minutes' + t.r3 * interval '2 hours' END,
  CASE WHEN t.state = 'scheduled' THEN now() + t.r3 * interval '2 hours' END,
  t.dead_letter, t.created_at, t.created_at,
  CASE WHEN t.state IN ('completed', 'active', 'retryable', 'discarded') THEN t.created_at + interval '1 second' END,
  CASE WHEN t.state IN ('completed', 'discarded') THEN least(now(), t.created_at + (2 + t.r2 * 20) * interval '1 second') END,
  CASE WHEN t.state = 'cancelled' THEN least(now(), t.created_at + interval '30 seconds') END,
  CASE WHEN t.state = 'discarded' THEN least(now(), t.created_at + (2 + t.r2 * 20) * interval '1 second') END,
  CASE WHEN t.state = 'active' THEN 'worker-' || (i % 12) END,
  CASE WHEN t.state = 'active' THEN now() + interval '2 hours' END,
  CASE WHEN t.state = 'active' THEN now() + interval '3 hours' END,
  CASE WHEN t.state = 'active' THEN now() END
FROM typed t
LEFT JOIN LATERAL (
  SELECT jsonb_agg(x.entry ORDER BY x.n) AS hist, (jsonb_agg(x.entry ORDER BY x.n DESC))->0 AS last
  FROM (
    SELECT n, jsonb_build_object('run', 1, 'attempt', n, 'type', t.etype, 'code', 'handler_error',
             'message', t.etype || ': attempt ' || n || ' failed for ' || t.type || ' (upstream said ' || (500 + i % 4) || ')',
             'occurred_at', to_char((t.created_at + n * interval '1 second') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'timestamp', to_char((t.created_at + n * interval '1 second') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'retryable', NOT t.dead_letter,
             'backtrace', jsonb_build_array('at app.handlers.' || replace(t.type, '.', '_') || '.perform(handler.rb:' || (10 + i % 90) || ')',
                                            'at app.worker.Runner.run(runner.rb:42)', 'at app.worker.Loop.tick(loop.rb:7)')) AS entry
    FROM generate_series(1, t.failures) n
  ) x
) e ON t.failures > 0;

INSERT INTO jobs SELECT * FROM seed_jobs WHERE state NOT IN ('completed', 'cancelled', 'discarded');
-- by column name: job_history has finished_at after the columns it shares with jobs, and later columns after it
-- finished_at follows the CHECK finished_at_by_state (V18), as HistorySql.finish derives it; the CHECK refuses any drift
DO $$
DECLARE
    cols text;
BEGIN
    SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO cols
    FROM pg_attribute WHERE attrelid = 'seed_jobs'::regclass AND attnum > 0 AND NOT attisdropped;
    EXECUTE format('INSERT INTO job_history (%s, finished_at) SELECT %s, CASE state WHEN ''completed'' THEN completed_at'
                   ' WHEN ''cancelled'' THEN cancelled_at ELSE discarded_at END FROM seed_jobs'
                   ' WHERE state IN (''completed'', ''cancelled'', ''discarded'')', cols, cols);
END
$$;
DROP TABLE seed_jobs;

INSERT INTO workers (id, first_seen, last_seen, hostname, queues, active_jobs)
SELECT 'worker-' || w, now() - interval '2 days', now() - (w * interval '4 seconds'), 'ip-10-0-1-' || (10 + w),
       ARRAY['email', 'webhooks', 'default'], 3
FROM generate_series(0, 11) w
ON CONFLICT (id) DO NOTHING;

DO $$ DECLARE r record; BEGIN
  -- pg_indexes writes a partitioned index as CREATE INDEX ... ON ONLY, which would build it on no partition
  FOR r IN SELECT indexdef FROM saved_indexes LOOP
    EXECUTE replace(replace(r.indexdef, ' ON ONLY ', ' ON '), 'CREATE INDEX ', 'CREATE INDEX IF NOT EXISTS ');
  END LOOP;
END $$;
VACUUM ANALYZE jobs;
VACUUM ANALYZE job_history;
SELECT state, dead_letter, count(*) FROM all_jobs GROUP BY 1, 2 ORDER BY 1, 2;
