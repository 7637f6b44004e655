-- Groups the failures seeded by scripts/seed-jobs.sql into error groups (V25), as the server would have counted them
-- had it recorded those failures itself (docs/operations/console.md > Error groups):
--
--   psql "$URL" -f scripts/seed-error-groups.sql
--
-- Run it once after seed-jobs.sql, against a database migrated to V25 (start the server once first). The seeded
-- messages ("SmtpError: attempt 2 failed for email.send (upstream said 502)") vary only in their numbers, so masking
-- digit runs here gives what domain.errors.ErrorMessages gives for them, and the fingerprint is the same SHA-256
-- prefix over type, a NUL byte and the normalised message as domain.errors.ErrorGroupKey's. Every entry of every
-- job's error history counts as one failed attempt (completed jobs that failed before included); a job whose current
-- error is set (retryable, discarded, dead letters) carries its group. Hourly counts cover the last 48 hours.
\set ON_ERROR_STOP on
SET maintenance_work_mem = '512MB';
SET synchronous_commit = off;

CREATE TEMP TABLE seed_failures AS
SELECT j.id, j.queue, j.type, j.in_history, x.e->>'type' AS etype,
       regexp_replace(x.e->>'message', '[0-9]+([.,:][0-9]+)*', '<n>', 'g') AS msg,
       (x.e->>'occurred_at')::timestamptz AS at,
       j.has_error AND x.ord = jsonb_array_length(j.errors) AS current
FROM (SELECT id, queue, type, errors, error IS NOT NULL AS has_error, false AS in_history FROM jobs
      WHERE errors <> '[]'::jsonb
      UNION ALL
      SELECT id, queue, type, errors, error IS NOT NULL, true FROM job_history WHERE errors <> '[]'::jsonb) j,
     jsonb_array_elements(j.errors) WITH ORDINALITY AS x(e, ord);

ALTER TABLE seed_failures ADD COLUMN grp bigint;
UPDATE seed_failures SET grp = ('x' || encode(substr(sha256(convert_to(etype, 'UTF8') || '\x00'::bytea
                                                            || convert_to(msg, 'UTF8')), 1, 8), 'hex'))::bit(64)::bigint;

UPDATE jobs j SET error_group = f.grp FROM seed_failures f WHERE f.id = j.id AND f.current AND NOT f.in_history;
UPDATE job_history h SET error_group = f.grp FROM seed_failures f WHERE f.id = h.id AND f.current AND f.in_history;

INSERT INTO error_groups (id, error_type, message, failures, first_seen, last_seen, queues, types)
SELECT grp, min(etype), min(msg), count(*), min(at), max(at), (array_agg(DISTINCT queue))[1:20],
       (array_agg(DISTINCT type))[1:20]
FROM seed_failures GROUP BY grp
ON CONFLICT (id) DO NOTHING;

INSERT INTO error_group_hours (group_id, hour, failures)
SELECT grp, date_trunc('hour', at, 'UTC'), count(*) FROM seed_failures WHERE at >= now() - interval '48 hours'
GROUP BY 1, 2
ON CONFLICT (group_id, hour) DO NOTHING;

VACUUM ANALYZE jobs;
VACUUM ANALYZE job_history;
ANALYZE error_groups;
ANALYZE error_group_hours;
SELECT count(*) AS groups, sum(failures) AS failures FROM error_groups;
