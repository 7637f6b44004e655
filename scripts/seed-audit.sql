-- Seeds audit entries for timing the audit page and GET /ojs/v1/admin/audit (docs/performance):
--   psql "$URL" -v rows=100000 -f scripts/seed-audit.sql
-- Entries spread evenly over the last 90 days, written oldest first (ids follow time, as they do in production);
-- five common actors and a rare one (rare-bot, 1 in 1,000), seven common actions and a rare one (reset, 1 in
-- 5,000), one in 50 refused.
INSERT INTO audit_log (at, actor, via, action, scope, jobs, client, outcome, status)
SELECT now() - (g * interval '90 days' / :rows),
       CASE WHEN g % 1000 = 0 THEN 'rare-bot' ELSE (ARRAY['alice', 'bob', 'carol', 'ci-admin', 'ops'])[1 + g % 5] END,
       CASE WHEN g % 3 = 0 THEN 'api' ELSE 'console' END,
       CASE WHEN g % 5000 = 0 THEN 'reset'
            ELSE (ARRAY['jobs.retry', 'jobs.cancel', 'dead-letter.retry-matching', 'queues.pause', 'queues.resume',
                        'errors.retry', 'jobs.delete'])[1 + g % 7] END,
       jsonb_build_object('id', md5(g::text), 'queue', 'q' || (g % 20)),
       CASE WHEN g % 7 = 2 THEN g % 500 ELSE 1 END,
       '10.0.' || (g % 250) || '.' || (g % 200),
       CASE WHEN g % 50 = 0 THEN 'refused' ELSE 'ok' END,
       CASE WHEN g % 50 = 0 THEN 403 ELSE 200 END
FROM generate_series(:rows, 1, -1) AS g;
ANALYZE audit_log;
