-- Per-tenant concurrency limits (ojs-multi-tenancy 8.1 max_concurrency, MT-003): the most jobs of one tenant that
-- may be active at once, across all queues and all instances. NULL: no limit (every existing row).
--
-- Every claim statement leaves out the jobs of a tenant with a limit (store.JobSql.NOT_LIMITED_TENANT reads the
-- partial index below once per statement: empty, and instant, while no tenant has a limit); those jobs are claimed
-- only under the tenant row's lock, after counting its active jobs (store.tenants.TenantLimitStore). Adding a
-- nullable column without a default rewrites nothing.
ALTER TABLE tenants ADD COLUMN max_concurrency integer CHECK (max_concurrency IS NULL OR max_concurrency > 0);

CREATE INDEX tenants_concurrency_idx ON tenants (id) WHERE max_concurrency IS NOT NULL;
