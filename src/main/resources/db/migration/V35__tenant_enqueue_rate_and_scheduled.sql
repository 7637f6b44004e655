-- The tenant limits checked when jobs are pushed, beside max_queue_depth (ojs-multi-tenancy 8.1, 8.2):
--
-- max_scheduled: the most scheduled (future) jobs a tenant may hold; a PUSH of scheduled jobs that would pass it is
-- refused with 429. Counted through jobs_tenant_state_idx, only for tenants that have the limit.
--
-- max_enqueue_rate: at most max_enqueue_rate_limit jobs per max_enqueue_rate_period_ms, as a token bucket
-- (domain.limits.EnqueueRate): enqueue_tokens is what the bucket held at enqueue_tokens_at; NULL, a full bucket.
-- A PUSH of a tenant with a rate takes its tokens under the tenant row's lock, so the rate holds across instances.
--
-- Nullable columns without defaults: nothing is rewritten; NULL is no limit for every existing row.
ALTER TABLE tenants ADD COLUMN max_scheduled integer CHECK (max_scheduled IS NULL OR max_scheduled >= 0);
ALTER TABLE tenants ADD COLUMN max_enqueue_rate_limit integer
    CHECK (max_enqueue_rate_limit IS NULL OR max_enqueue_rate_limit > 0);
ALTER TABLE tenants ADD COLUMN max_enqueue_rate_period_ms bigint
    CHECK (max_enqueue_rate_period_ms IS NULL OR max_enqueue_rate_period_ms > 0);
ALTER TABLE tenants ADD CONSTRAINT tenants_enqueue_rate_whole
    CHECK ((max_enqueue_rate_limit IS NULL) = (max_enqueue_rate_period_ms IS NULL));
ALTER TABLE tenants ADD COLUMN enqueue_tokens double precision;
ALTER TABLE tenants ADD COLUMN enqueue_tokens_at timestamptz;

-- The default tenant (ojs-multi-tenancy 15.3): the row '_default' holds the limits of jobs without a tenant, which
-- are its max_enqueue_rate alone (its other limits would count jobs without a tenant, which no index holds; the
-- server refuses them with 400, and this keeps them out whatever writes the row). No job can name it: a job's
-- tenant_id still matches the form below without it.
ALTER TABLE tenants DROP CONSTRAINT tenants_id_check;
ALTER TABLE tenants ADD CONSTRAINT tenants_id_check
    CHECK (id = '_default' OR (id ~ '^[a-zA-Z0-9][a-zA-Z0-9._:-]*$' AND length(id) <= 128));
ALTER TABLE tenants ADD CONSTRAINT tenants_default_rate_only
    CHECK (id <> '_default' OR (fairness_weight = 1 AND max_queue_depth IS NULL AND max_concurrency IS NULL
                                AND max_scheduled IS NULL));
