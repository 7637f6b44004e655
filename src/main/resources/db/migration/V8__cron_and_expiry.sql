-- Cron schedules (ojs-cron.md, HTTP binding section 13) and job expiry (expires_at, ojs-core.md 5.2).

-- One row per registered schedule. next_fire_at is the occurrence the firing task acts on next; it is NULL while
-- the schedule is paused (enabled = false), so the due index holds only schedules that can fire.
CREATE TABLE cron_jobs (
    name           text        PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9.-]*$' AND length(name) <= 255),
    expression     text        NOT NULL CHECK (length(expression) BETWEEN 1 AND 255),
    timezone       text        NOT NULL,
    overlap_policy text        NOT NULL CHECK (overlap_policy IN ('skip', 'allow', 'cancel_previous')),
    enabled        boolean     NOT NULL DEFAULT true,
    description    text,
    -- what each occurrence enqueues: {"type", "args", "meta", "options"} as the client sent it (validated).
    template       jsonb       NOT NULL CHECK (jsonb_typeof(template) = 'object'),
    next_fire_at   timestamptz,
    last_fire_at   timestamptz,
    last_job_id    uuid,
    run_count      bigint      NOT NULL DEFAULT 0 CHECK (run_count >= 0),
    created_at     timestamptz NOT NULL,
    CONSTRAINT enabled_has_next_fire CHECK (NOT enabled OR next_fire_at IS NOT NULL)
);

CREATE INDEX cron_jobs_due_idx ON cron_jobs (next_fire_at) WHERE enabled;

-- Every occurrence a schedule acted on, enqueued or skipped. The primary key is the exactly-once guarantee: an
-- occurrence is enqueued only by the transaction whose insert of (cron_name, fire_at) succeeded, so two instances
-- (or a retried run) can never enqueue the same occurrence twice.
CREATE TABLE cron_runs (
    cron_name  text        NOT NULL REFERENCES cron_jobs (name) ON DELETE CASCADE,
    fire_at    timestamptz NOT NULL,
    outcome    text        NOT NULL CHECK (outcome IN ('enqueued', 'skipped')),
    job_id     uuid,
    reason     text,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (cron_name, fire_at),
    CONSTRAINT enqueued_has_job CHECK ((outcome = 'enqueued') = (job_id IS NOT NULL))
);

-- Expiry: the jobs that can still expire (not started yet: waiting, scheduled, retrying or pending) by deadline.
-- Partial on expires_at IS NOT NULL, so a job without a deadline never enters it and PUSH/FETCH of such jobs pay
-- nothing for it.
CREATE INDEX jobs_expiry_idx ON jobs (expires_at)
    WHERE expires_at IS NOT NULL AND state IN ('available', 'scheduled', 'retryable', 'pending');
