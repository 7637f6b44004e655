-- Tenants (ojs-multi-tenancy.md) and scheduling pools (ojs-fair-scheduling.md).
--
-- A job's tenant is meta.tenant_id (ojs-multi-tenancy 5.1), copied into tenant_id when the job is inserted
-- (store.JobSql.INSERT_JOBS) so claims, listings and statistics can find a tenant's jobs by index. A job without a
-- tenant leaves the column NULL, which costs a bit of the row's null bitmap and nothing else: both indexes on the
-- live table are partial on tenant_id IS NOT NULL, so such a job never enters them, and the column never changes
-- after the insert, so no update that was HOT before stops being one. Adding a nullable column without a default
-- rewrites nothing, on the live table or on the history's partitions.

ALTER TABLE jobs ADD COLUMN tenant_id text;
ALTER TABLE job_history ADD COLUMN tenant_id text;

-- Jobs already live whose meta names a well-formed tenant get it (the history keeps NULL: finished jobs are never
-- claimed, and rewriting the partitions is not worth the per-tenant counts of jobs finished before the upgrade).
UPDATE jobs SET tenant_id = meta->>'tenant_id'
WHERE jsonb_typeof(meta->'tenant_id') = 'string' AND meta->>'tenant_id' ~ '^[a-zA-Z0-9][a-zA-Z0-9._:-]*$'
  AND length(meta->>'tenant_id') <= 128;

-- The fair claim (JobSql.CLAIM_FAIR): which tenants have claimable jobs in a queue (one probe per tenant, in
-- tenant order from a cursor), and each tenant's next jobs in claim order; also a tenant-scoped FETCH.
CREATE INDEX jobs_tenant_claim_idx ON jobs (queue, tenant_id, priority DESC, run_at, id)
    WHERE tenant_id IS NOT NULL AND state IN ('available', 'scheduled', 'retryable');
-- A tenant's live jobs by state (GET /ojs/v1/admin/tenants/{id}/stats, listings filtered by tenant).
CREATE INDEX jobs_tenant_state_idx ON jobs (tenant_id, state) WHERE tenant_id IS NOT NULL;
-- A tenant's finished jobs (its statistics), in each day's partition.
CREATE INDEX job_history_tenant_idx ON job_history (tenant_id, finished_at) WHERE tenant_id IS NOT NULL;

-- A tenant's configuration (ojs-multi-tenancy 8.1): its weight in the fair claim and its queue depth limit, checked
-- at PUSH. A tenant without a row has weight 1 and no limit.
CREATE TABLE tenants (
    id              text PRIMARY KEY CHECK (id ~ '^[a-zA-Z0-9][a-zA-Z0-9._:-]*$' AND length(id) <= 128),
    fairness_weight integer NOT NULL DEFAULT 1 CHECK (fairness_weight BETWEEN 1 AND 1000),
    max_queue_depth integer CHECK (max_queue_depth IS NULL OR max_queue_depth >= 0),
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);

-- Worker pools (ojs-fair-scheduling 6.1, 10.1): a named set of queues with a strategy and queue weights.
CREATE TABLE scheduling_pools (
    name        text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 255),
    strategy    text NOT NULL CHECK (strategy IN ('strict', 'round-robin', 'weighted', 'least-loaded')),
    queues      text[] NOT NULL,
    weights     jsonb NOT NULL DEFAULT '{}',
    concurrency integer CHECK (concurrency IS NULL OR concurrency > 0),
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);

-- all_jobs gains the column. The view is rebuilt from the live table's own column list, in table order (as V21 did
-- inline); from here on one function does it, so a migration that adds a column to jobs and job_history calls it.
CREATE OR REPLACE FUNCTION rebuild_all_jobs() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    cols text;
BEGIN
    SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO cols
    FROM pg_attribute WHERE attrelid = 'jobs'::regclass AND attnum > 0 AND NOT attisdropped;
    EXECUTE format('CREATE OR REPLACE VIEW all_jobs AS SELECT %s FROM jobs UNION ALL SELECT %s FROM job_history',
                   cols, cols);
END
$$;
SELECT rebuild_all_jobs();
