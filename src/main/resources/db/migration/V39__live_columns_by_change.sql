-- The live table's columns in the order a job's updates change them: the columns written once at PUSH first, the
-- ones the claim, the promoter and a FAIL change after them, the error history last.
--
-- PostgreSQL logs an UPDATE whose new row version stays on the same page as the bytes between the longest prefix and
-- the longest suffix the two versions share (heapam's log_heap_update). In the order the columns were added over
-- 38 migrations, the columns a claim changes (state, attempt, run_at, started_at, lease_owner, the lease times) were
-- spread from the ninth to the last, around args, meta, retry_policy, error and errors, so such an update logged
-- nearly the whole row: 775 bytes on average in W4 (fail once), whose rows carry a retry policy and an error. In this
-- order the same updates log 174 bytes; W4 writes 4,910 WAL bytes a job instead of 5,830 (pg_waldump over a run of
-- 20,000 jobs, docs/performance/2026-11-30-live-columns-by-change.md), W2 1,268 instead of 1,308 (its rows are
-- small). Updates that move to another page log the whole row either way.
--
-- PostgreSQL cannot reorder a table's columns in place: the table is rebuilt under an exclusive lock, with every
-- index, constraint, statistics object and trigger it had, and all_jobs is recreated over it (same columns, by name,
-- and lease_check_at, which V36 added to both tables without rebuilding the view).
-- The lock is held for the copy of the live rows: waiting and running jobs, not the history.
LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE;
DROP VIEW all_jobs;
ALTER TABLE jobs RENAME TO jobs_v38;

CREATE TABLE jobs (
    -- Written at PUSH, fixed width first (no alignment padding between them).
    id uuid NOT NULL,
    created_at timestamp with time zone NOT NULL,
    scheduled_at timestamp with time zone,
    expires_at timestamp with time zone,
    visibility_timeout_ms bigint NOT NULL,
    timeout_ms bigint,
    retry_delay_ms bigint,
    workflow_id uuid,
    priority integer DEFAULT 0 NOT NULL,
    max_attempts integer NOT NULL,
    type text NOT NULL,
    queue text NOT NULL,
    args jsonb NOT NULL,
    meta jsonb DEFAULT '{}'::jsonb NOT NULL,
    extensions jsonb,
    tags text[] DEFAULT '{}'::text[] NOT NULL,
    retry_policy jsonb NOT NULL,
    unique_key text,
    rate_limit_key text,
    tenant_id text,
    -- Changed off the hot path (a snooze, a rerun, a checkpoint, the first FAIL of an error kind).
    dead_letter boolean DEFAULT false NOT NULL,
    checkpointed boolean DEFAULT false NOT NULL,
    snoozes integer DEFAULT 0 NOT NULL,
    run integer DEFAULT 1 NOT NULL,
    error_group bigint,
    -- Changed by the claim, the promoter, a heartbeat, a FAIL.
    attempt integer DEFAULT 0 NOT NULL,
    run_at timestamp with time zone,
    enqueued_at timestamp with time zone,
    started_at timestamp with time zone,
    completed_at timestamp with time zone,
    cancelled_at timestamp with time zone,
    discarded_at timestamp with time zone,
    lease_expires_at timestamp with time zone,
    execution_deadline timestamp with time zone,
    lease_renewed_at timestamp with time zone,
    lease_check_at timestamp with time zone,
    state text NOT NULL,
    lease_owner text,
    -- Changed by a FAIL only: last, so the other updates share them as the rows' suffix.
    result jsonb,
    error jsonb,
    errors jsonb DEFAULT '[]'::jsonb NOT NULL,
    CONSTRAINT active_has_lease CHECK (((state = 'active'::text) = (lease_expires_at IS NOT NULL))),
    CONSTRAINT active_was_started CHECK (((state <> 'active'::text) OR ((started_at IS NOT NULL) AND (attempt >= 1)))),
    CONSTRAINT cancelled_has_time CHECK (((state <> 'cancelled'::text) OR (cancelled_at IS NOT NULL))),
    CONSTRAINT claimable_has_run_at CHECK (((state = ANY (ARRAY['available'::text, 'scheduled'::text, 'retryable'::text])) = (run_at IS NOT NULL))),
    CONSTRAINT completed_has_time CHECK (((state <> 'completed'::text) OR (completed_at IS NOT NULL))),
    CONSTRAINT discarded_has_time CHECK (((state <> 'discarded'::text) OR (discarded_at IS NOT NULL))),
    CONSTRAINT jobs_args_check CHECK ((jsonb_typeof(args) = 'array'::text)),
    CONSTRAINT jobs_attempt_check CHECK ((attempt >= 0)),
    CONSTRAINT jobs_check CHECK (((snoozes >= 0) AND (snoozes <= attempt))),
    CONSTRAINT jobs_errors_check CHECK ((jsonb_typeof(errors) = 'array'::text)),
    CONSTRAINT jobs_extensions_check CHECK (((extensions IS NULL) OR (jsonb_typeof(extensions) = 'object'::text))),
    CONSTRAINT jobs_live_only CHECK ((state = ANY (ARRAY['available'::text, 'scheduled'::text, 'pending'::text, 'active'::text, 'retryable'::text]))),
    CONSTRAINT jobs_max_attempts_check CHECK ((max_attempts >= 0)),
    CONSTRAINT jobs_meta_check CHECK ((jsonb_typeof(meta) = 'object'::text)),
    CONSTRAINT jobs_priority_check CHECK (((priority >= '-100'::integer) AND (priority <= 100))),
    CONSTRAINT jobs_queue_check CHECK ((length(queue) <= 128)),
    CONSTRAINT jobs_retry_policy_check CHECK ((jsonb_typeof(retry_policy) = 'object'::text)),
    CONSTRAINT jobs_run_check CHECK ((run >= 1)),
    CONSTRAINT jobs_state_check CHECK ((state = ANY (ARRAY['scheduled'::text, 'available'::text, 'pending'::text, 'active'::text, 'completed'::text, 'retryable'::text, 'cancelled'::text, 'discarded'::text]))),
    CONSTRAINT jobs_timeout_ms_check CHECK (((timeout_ms IS NULL) OR (timeout_ms > 0))),
    CONSTRAINT jobs_type_check CHECK ((length(type) <= 255)),
    CONSTRAINT jobs_unique_key_check CHECK (((unique_key IS NULL) OR (unique_key ~ '^[0-9a-f]{64}$'::text))),
    CONSTRAINT jobs_visibility_timeout_ms_check CHECK ((visibility_timeout_ms > 0)),
    CONSTRAINT live_is_no_dead_letter CHECK ((NOT dead_letter))
) WITH (fillfactor = 70);

INSERT INTO jobs (id, created_at, scheduled_at, expires_at, visibility_timeout_ms, timeout_ms, retry_delay_ms,
                  workflow_id, priority, max_attempts, type, queue, args, meta, extensions, tags, retry_policy,
                  unique_key, rate_limit_key, tenant_id, dead_letter, checkpointed, snoozes, run, error_group, attempt,
                  run_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_expires_at,
                  execution_deadline, lease_renewed_at, lease_check_at, state, lease_owner, result, error, errors)
SELECT id, created_at, scheduled_at, expires_at, visibility_timeout_ms, timeout_ms, retry_delay_ms,
       workflow_id, priority, max_attempts, type, queue, args, meta, extensions, tags, retry_policy,
       unique_key, rate_limit_key, tenant_id, dead_letter, checkpointed, snoozes, run, error_group, attempt,
       run_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_expires_at,
       execution_deadline, lease_renewed_at, lease_check_at, state, lease_owner, result, error, errors
FROM jobs_v38;

DROP TABLE jobs_v38;

ALTER TABLE jobs ADD CONSTRAINT jobs_pkey PRIMARY KEY (id);
CREATE INDEX jobs_claim_idx ON jobs (queue, priority DESC, run_at, id) WHERE state IN ('available', 'scheduled', 'retryable');
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE state IN ('scheduled', 'retryable');
CREATE INDEX jobs_error_group_idx ON jobs (error_group, id) INCLUDE (state, dead_letter) WHERE error_group IS NOT NULL;
CREATE INDEX jobs_expiry_idx ON jobs (expires_at)
    WHERE expires_at IS NOT NULL AND state IN ('available', 'scheduled', 'retryable', 'pending');
CREATE INDEX jobs_lease_check_idx ON jobs (lease_check_at) WHERE state = 'active';
CREATE INDEX jobs_lease_unchecked_idx ON jobs (id) WHERE state = 'active' AND lease_check_at IS NULL;
CREATE INDEX jobs_live_created_idx ON jobs (created_at, id);
CREATE INDEX jobs_rate_limit_claim_idx ON jobs (rate_limit_key, queue, priority DESC, run_at, id) WHERE rate_limit_key IS NOT NULL;
CREATE INDEX jobs_rate_limit_queue_idx ON jobs (queue, rate_limit_key) WHERE rate_limit_key IS NOT NULL;
CREATE INDEX jobs_tenant_claim_idx ON jobs (queue, tenant_id, priority DESC, run_at, id)
    WHERE tenant_id IS NOT NULL AND state IN ('available', 'scheduled', 'retryable');
CREATE INDEX jobs_tenant_state_idx ON jobs (tenant_id, state) WHERE tenant_id IS NOT NULL;
CREATE INDEX jobs_unique_key_idx ON jobs (unique_key, created_at) WHERE unique_key IS NOT NULL;
CREATE STATISTICS jobs_search_text_stats ON job_search_text(args, meta, errors) FROM jobs;
CREATE TRIGGER jobs_notify_inserted AFTER INSERT ON jobs REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION steadfast_notify_inserted();
ANALYZE jobs;

SELECT rebuild_all_jobs();
