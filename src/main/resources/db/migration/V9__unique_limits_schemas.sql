-- Level 4: unique jobs, queue rate and concurrency limits, the schema registry.

-- Unique jobs (ojs-unique-jobs.md): the job's uniqueness key (SHA-256 hex of its fingerprint), NULL for jobs without a
-- unique policy. A PUSH with a policy takes a transaction-scoped advisory lock on the key, looks up the jobs that hold
-- it, decides (domain.unique.UniqueDecider) and inserts in the same transaction, so concurrent producers of one key
-- are serialised by PostgreSQL on every instance. The policy's states and period differ per job, which is why this is
-- a lookup under a lock and not a unique index: a partial unique index can only name one fixed set of states.
-- Partial on NOT NULL: a job without a policy never writes this index.
ALTER TABLE jobs ADD COLUMN unique_key text CHECK (unique_key IS NULL OR unique_key ~ '^[0-9a-f]{64}$');
CREATE INDEX jobs_unique_key_idx ON jobs (unique_key, created_at) WHERE unique_key IS NOT NULL;

-- Queue limits (ojs-rate-limiting.md 7.2, queue level): at most rate_limit job starts in any rate_period_ms-long
-- interval (a sliding log: rate_starts holds the start instants of the last rate_limit claims), and at most
-- concurrency jobs active at once. Only queues with a limit set limited; the claim statement of every other queue
-- skips limited queues and the limited path locks the queue's row (store.QueueLimitStore).
ALTER TABLE queues
    ADD COLUMN rate_limit     integer CHECK (rate_limit IS NULL OR rate_limit BETWEEN 0 AND 10000),
    ADD COLUMN rate_period_ms bigint  CHECK (rate_period_ms IS NULL OR rate_period_ms > 0),
    ADD COLUMN concurrency    integer CHECK (concurrency IS NULL OR concurrency >= 0),
    ADD COLUMN rate_starts    timestamptz[] NOT NULL DEFAULT '{}',
    ADD COLUMN limited        boolean GENERATED ALWAYS AS (rate_limit IS NOT NULL OR concurrency IS NOT NULL) STORED,
    ADD CONSTRAINT rate_has_period CHECK ((rate_limit IS NULL) = (rate_period_ms IS NULL));

-- Schema registry (ojs-http-binding.md section 15): JSON Schemas by URI. Jobs are not validated against them.
CREATE TABLE schemas (
    uri        text        PRIMARY KEY CHECK (length(uri) BETWEEN 1 AND 1024),
    type       text        NOT NULL CHECK (length(type) BETWEEN 1 AND 255),
    version    integer     NOT NULL CHECK (version >= 1),
    schema     jsonb       NOT NULL CHECK (jsonb_typeof(schema) = 'object'),
    created_at timestamptz NOT NULL
);
