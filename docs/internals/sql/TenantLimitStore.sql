-- The statements of store TenantLimitStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- TenantLimitStore.LOCK_TENANTS
SELECT id, max_concurrency FROM tenants WHERE id = ANY($1::text[]) AND max_concurrency IS NOT NULL
ORDER BY id FOR UPDATE;

-- TenantLimitStore.ACTIVE_OF_TENANTS
SELECT tenant_id, count(*) FROM jobs WHERE tenant_id = ANY($1::text[]) AND state = 'active'
GROUP BY tenant_id;
