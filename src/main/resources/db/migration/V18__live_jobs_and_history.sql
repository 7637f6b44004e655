-- Live jobs apart from history.
--
-- Until now one table held every job for its whole life, so the table the claim reads, its indexes and autovacuum
-- grew with the history kept for the console (7 days by default): at 1,000,000 jobs of history the ACK statement
-- took 5.7 ms per call instead of 0.27 ms, because a completed job entered indexes as large as the history.
--
-- From here on:
--   jobs         only live jobs (available, scheduled, pending, active, retryable), with the few indexes the claim,
--                the lease reaper, the promoter, expiry and unique keys need. A job leaves it in the very statement
--                that finishes it (store.HistorySql builds those moves).
--   job_history  finished jobs (completed, cancelled, discarded, dead letters), append-only, same columns plus
--                finished_at. Partitioned by LIST (dead_letter): dead letters stay in job_history_dead until an
--                operator acts; every other finished job goes to job_history_done, partitioned by RANGE of
--                finished_at into one partition per UTC day, created ahead of need by the maintenance task
--                (store.HistoryPartitions) and dropped whole when retention passes (no row-by-row DELETE).
--                job_history_done_default catches a row whose day has no partition (the task moves such rows into
--                their partition when it creates it).
--   all_jobs     a view of both, for readers that look a job up whatever its state (INFO, the console, unique keys).

-- The jobs table so far becomes the source of both new tables and is dropped at the end: copying the few live rows
-- into a new table (rather than deleting the finished ones in place) leaves both tables compact, without a dead tuple
-- for vacuum, and writes no WAL for a million deletes.
ALTER TABLE jobs RENAME TO jobs_before_v18;
ALTER TABLE job_progress DROP CONSTRAINT job_progress_job_id_fkey;

-- Same columns in the same order, defaults and CHECK constraints; the indexes are built after the copy.
CREATE TABLE jobs (LIKE jobs_before_v18 INCLUDING DEFAULTS INCLUDING CONSTRAINTS);

-- Same columns as jobs, in the same order (so a moved row keeps its layout), with jobs' CHECK constraints.
CREATE TABLE job_history (
    LIKE jobs_before_v18 INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
    -- completed_at, cancelled_at or discarded_at, by state: the partition key (a generated column cannot be one).
    finished_at timestamptz NOT NULL,
    CONSTRAINT history_is_finished CHECK (state IN ('completed', 'cancelled', 'discarded')),
    CONSTRAINT finished_at_by_state CHECK (finished_at = CASE state WHEN 'completed' THEN completed_at
                                                                    WHEN 'cancelled' THEN cancelled_at
                                                                    ELSE discarded_at END)
) PARTITION BY LIST (dead_letter);

CREATE TABLE job_history_dead PARTITION OF job_history FOR VALUES IN (true);
CREATE TABLE job_history_done PARTITION OF job_history FOR VALUES IN (false) PARTITION BY RANGE (finished_at);
CREATE TABLE job_history_done_default PARTITION OF job_history_done DEFAULT;

-- Creates the partition of job_history_done for one UTC day unless it exists; true when it created it. Safe on every
-- instance at once (a transaction-scoped advisory lock serialises creators). Rows of that day that had landed in the
-- default partition are moved into the new partition in the same transaction.
CREATE FUNCTION steadfast_history_partition(day date) RETURNS boolean
    LANGUAGE plpgsql
AS $$
DECLARE
    part text := 'job_history_done_' || to_char(day, 'YYYYMMDD');
    lo timestamptz := day::timestamp AT TIME ZONE 'UTC';
    hi timestamptz := (day + 1)::timestamp AT TIME ZONE 'UTC';
BEGIN
    IF to_regclass(part) IS NOT NULL THEN
        RETURN false;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('steadfast_history_partitions'));
    IF to_regclass(part) IS NOT NULL THEN
        RETURN false;
    END IF;
    CREATE TEMP TABLE steadfast_history_stray (LIKE job_history) ON COMMIT DROP;
    WITH stray AS (DELETE FROM job_history_done_default WHERE finished_at >= lo AND finished_at < hi RETURNING *)
    INSERT INTO steadfast_history_stray SELECT * FROM stray;
    EXECUTE format('CREATE TABLE %I PARTITION OF job_history_done FOR VALUES FROM (%L) TO (%L)', part, lo, hi);
    INSERT INTO job_history SELECT * FROM steadfast_history_stray;
    DROP TABLE steadfast_history_stray;
    RETURN true;
END
$$;

-- Partitions for every day that has finished jobs today, and for the days ahead until the maintenance task runs.
SELECT steadfast_history_partition(d::date)
FROM generate_series(
         coalesce((SELECT min(CASE state WHEN 'completed' THEN completed_at WHEN 'cancelled' THEN cancelled_at
                                         ELSE discarded_at END)
                   FROM jobs_before_v18 WHERE state IN ('completed', 'cancelled', 'discarded') AND NOT dead_letter),
                  now()) AT TIME ZONE 'UTC',
         (now() AT TIME ZONE 'UTC') + interval '3 days', interval '1 day') d;

-- The copy, before either table has an index (each is built once afterwards, which is faster than maintaining it
-- row by row). Measured on 1,000,000 seeded jobs: see README "Live jobs and history".
INSERT INTO jobs SELECT * FROM jobs_before_v18 WHERE state NOT IN ('completed', 'cancelled', 'discarded');
INSERT INTO job_history
SELECT o.*, CASE o.state WHEN 'completed' THEN o.completed_at WHEN 'cancelled' THEN o.cancelled_at
                         ELSE o.discarded_at END
FROM jobs_before_v18 o WHERE o.state IN ('completed', 'cancelled', 'discarded');
DROP TABLE jobs_before_v18;

-- The live table holds live jobs only, with the indexes the claim (V1), the lease reaper (V1), the promoter (V2),
-- expiry (V8) and unique keys (V9) need, unchanged, plus the console's creation order of live jobs (V6's
-- jobs_live_created_idx, now over every live job) and text search over waiting ones. The console's other indexes
-- live on the history.
ALTER TABLE jobs ADD PRIMARY KEY (id);
ALTER TABLE jobs ADD CONSTRAINT jobs_live_only CHECK (state IN ('available', 'scheduled', 'pending', 'active', 'retryable'));
ALTER TABLE jobs DROP CONSTRAINT dead_letter_is_discarded;
ALTER TABLE jobs ADD CONSTRAINT live_is_no_dead_letter CHECK (NOT dead_letter);
CREATE INDEX jobs_claim_idx ON jobs (queue, priority DESC, run_at, id) WHERE state IN ('available', 'scheduled', 'retryable');
CREATE INDEX jobs_lease_idx ON jobs (lease_expires_at) WHERE state = 'active';
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE state IN ('scheduled', 'retryable');
CREATE INDEX jobs_expiry_idx ON jobs (expires_at)
    WHERE expires_at IS NOT NULL AND state IN ('available', 'scheduled', 'retryable', 'pending');
CREATE INDEX jobs_unique_key_idx ON jobs (unique_key, created_at) WHERE unique_key IS NOT NULL;
CREATE INDEX jobs_live_created_idx ON jobs (created_at, id);
-- Text search over waiting jobs (everything live but active): a scan of 122,000 live jobs took 0.8 s at 1,000,000
-- seeded jobs. Written by PUSH and by a FAIL or promotion, never by the claim (an active job leaves its predicate;
-- active jobs are few and are searched through the lease index). The planner ignores a partial expression index's
-- statistics, so the expression gets its own (V6 measured why).
CREATE INDEX jobs_search_idx ON jobs USING gin (job_search_text(args, meta, errors) gin_trgm_ops) WHERE state <> 'active';
CREATE STATISTICS jobs_search_text_stats ON (job_search_text(args, meta, errors)) FROM jobs;
-- Room on each page for the claim's and the promoter's new row versions (fewer page splits and a chance of HOT).
ALTER TABLE jobs SET (fillfactor = 70);
-- Long-poll wake-ups of V5, on the new table.
CREATE TRIGGER jobs_notify_inserted AFTER INSERT ON jobs
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION steadfast_notify_inserted();

-- Progress rows (V11) no longer have a foreign key: they go with their job's id, wherever the job lives, and the
-- pruner removes the ones whose job is gone.

-- History's indexes, each on every partition: the id (INFO, workflows, the duplicate-id check of a client-chosen id),
-- the console's keyset orders and filters (V4/V5, measured there), depth counts, the per-minute chart and unique
-- keys. Dead letters get their own browsing order on their partition.
CREATE INDEX job_history_id_idx ON job_history (id);
CREATE INDEX job_history_created_idx ON job_history (created_at, id);
CREATE INDEX job_history_state_created_idx ON job_history (state, created_at, id);
CREATE INDEX job_history_queue_created_idx ON job_history (queue, created_at, id);
CREATE INDEX job_history_type_created_idx ON job_history (type, created_at, id);
CREATE INDEX job_history_tags_idx ON job_history USING gin (tags);
CREATE INDEX job_history_queue_state_idx ON job_history (queue, state);
CREATE INDEX job_history_finished_idx ON job_history (finished_at) INCLUDE (state);
CREATE INDEX job_history_unique_key_idx ON job_history (unique_key, created_at) WHERE unique_key IS NOT NULL;
CREATE INDEX job_history_search_idx ON job_history USING gin (job_search_text(args, meta, errors) gin_trgm_ops);
CREATE INDEX job_history_dead_idx ON job_history_dead (discarded_at DESC, id DESC);
CREATE INDEX job_history_dead_queue_idx ON job_history_dead (queue, discarded_at DESC, id DESC);

-- Every job, live or finished, with the live table's columns.
CREATE VIEW all_jobs AS
    SELECT * FROM jobs
    UNION ALL
    SELECT id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy,
           error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at,
           retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at,
           discarded_at, lease_owner, lease_expires_at, execution_deadline, lease_renewed_at, unique_key, workflow_id
    FROM job_history;

ANALYZE jobs;
ANALYZE job_history;
