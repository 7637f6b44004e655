-- The jobs table holds the whole OJS job envelope and its lifecycle. One row per job, for its whole life.
-- Invariants are CHECK constraints so that no code path can write an impossible job.

CREATE TABLE jobs (
    id                    uuid        PRIMARY KEY,
    type                  text        NOT NULL CHECK (type ~ '^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$' AND length(type) <= 255),
    queue                 text        NOT NULL CHECK (queue ~ '^[a-z0-9][a-z0-9.-]*$' AND length(queue) <= 128),
    -- args is a JSON array and meta a JSON object; both are stored as jsonb and read back as text, so the
    -- server never has to map a top-level JSON array onto an object type.
    args                  jsonb       NOT NULL CHECK (jsonb_typeof(args) = 'array'),
    meta                  jsonb       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(meta) = 'object'),
    -- attributes outside the OJS envelope that a client sent (x_* and future fields): preserved verbatim.
    extensions            jsonb       CHECK (extensions IS NULL OR jsonb_typeof(extensions) = 'object'),
    priority              integer     NOT NULL DEFAULT 0 CHECK (priority BETWEEN -100 AND 100),
    tags                  text[]      NOT NULL DEFAULT '{}',
    state                 text        NOT NULL CHECK (state IN ('scheduled', 'available', 'pending', 'active',
                                                                'completed', 'retryable', 'cancelled', 'discarded')),
    attempt               integer     NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    -- attempts handed back by the worker without failing (snooze / requeue): they run but do not count
    -- against max_attempts nor lengthen the backoff.
    snoozes               integer     NOT NULL DEFAULT 0 CHECK (snoozes >= 0 AND snoozes <= attempt),
    max_attempts          integer     NOT NULL CHECK (max_attempts >= 0),
    retry_policy          jsonb       NOT NULL CHECK (jsonb_typeof(retry_policy) = 'object'),
    -- error: the most recent error of the current run (cleared on success); errors: the whole history,
    -- oldest first, each entry tagged with the run it belongs to (a dead-letter retry starts a new run).
    error                 jsonb,
    errors                jsonb       NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(errors) = 'array'),
    run                   integer     NOT NULL DEFAULT 1 CHECK (run >= 1),
    result                jsonb,
    timeout_ms            bigint      CHECK (timeout_ms IS NULL OR timeout_ms > 0),
    visibility_timeout_ms bigint      NOT NULL CHECK (visibility_timeout_ms > 0),
    -- run_at: when the job may next be claimed. available: when it became available (FIFO order);
    -- scheduled: its scheduled time; retryable: the next retry time. NULL for every other state.
    run_at                timestamptz,
    scheduled_at          timestamptz,
    expires_at            timestamptz,
    retry_delay_ms        bigint,
    dead_letter           boolean     NOT NULL DEFAULT false,
    created_at            timestamptz NOT NULL,
    enqueued_at           timestamptz,
    started_at            timestamptz,
    completed_at          timestamptz,
    cancelled_at          timestamptz,
    discarded_at          timestamptz,
    -- the lease (visibility timeout): who holds the active job and until when.
    lease_owner           text,
    lease_expires_at      timestamptz,
    -- started_at + timeout_ms: a heartbeat extends the lease but never past this instant.
    execution_deadline    timestamptz,

    CONSTRAINT claimable_has_run_at CHECK ((state IN ('available', 'scheduled', 'retryable')) = (run_at IS NOT NULL)),
    CONSTRAINT active_has_lease CHECK ((state = 'active') = (lease_expires_at IS NOT NULL)),
    CONSTRAINT active_was_started CHECK (state <> 'active' OR (started_at IS NOT NULL AND attempt >= 1)),
    CONSTRAINT completed_has_time CHECK (state <> 'completed' OR completed_at IS NOT NULL),
    CONSTRAINT cancelled_has_time CHECK (state <> 'cancelled' OR cancelled_at IS NOT NULL),
    CONSTRAINT discarded_has_time CHECK (state <> 'discarded' OR discarded_at IS NOT NULL),
    CONSTRAINT dead_letter_is_discarded CHECK (NOT dead_letter OR state = 'discarded')
);

-- The claim: per queue, highest priority first, then oldest run_at, then id (UUIDv7, so creation order).
-- Partial, so it only ever holds claimable rows and the claim is an index scan however large the table grows.
CREATE INDEX jobs_claim_idx ON jobs (queue, priority DESC, run_at, id)
    WHERE state IN ('available', 'scheduled', 'retryable');

-- Lease expiry: the reaper scans only active jobs, ordered by expiry.
CREATE INDEX jobs_lease_idx ON jobs (lease_expires_at) WHERE state = 'active';

-- Heartbeats extend the leases a worker holds.
CREATE INDEX jobs_lease_owner_idx ON jobs (lease_owner) WHERE state = 'active';

-- Dead letter browsing, newest first.
CREATE INDEX jobs_dead_letter_idx ON jobs (discarded_at DESC, id DESC) WHERE dead_letter;

-- Pruning of finished jobs by age.
CREATE INDEX jobs_finished_idx ON jobs (completed_at) WHERE state IN ('completed', 'discarded', 'cancelled') AND NOT dead_letter;

-- Queues known to the server: created when the first job is enqueued into them, and the pause switch.
CREATE TABLE queues (
    name       text        PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9.-]*$' AND length(name) <= 128),
    paused     boolean     NOT NULL DEFAULT false,
    paused_at  timestamptz,
    created_at timestamptz NOT NULL,
    CONSTRAINT paused_has_time CHECK (NOT paused OR paused_at IS NOT NULL)
);

-- Workers seen through fetch or heartbeat, and the directive an operator set for them.
CREATE TABLE workers (
    id           text        PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 255),
    directive    text        NOT NULL DEFAULT 'running' CHECK (directive IN ('running', 'quiet', 'terminate')),
    first_seen   timestamptz NOT NULL,
    last_seen    timestamptz NOT NULL,
    hostname     text,
    queues       text[]
);
