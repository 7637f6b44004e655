-- The statements of store TenantAdmissionStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- TenantAdmissionStore.ADMISSION_LIMITS
SELECT id, max_queue_depth, max_concurrency, max_scheduled, max_enqueue_rate_limit,
       max_enqueue_rate_period_ms FROM tenants
WHERE max_queue_depth IS NOT NULL OR max_scheduled IS NOT NULL OR max_enqueue_rate_limit IS NOT NULL;

-- TenantAdmissionStore.WAITING
SELECT count(*) FROM jobs WHERE tenant_id = $1
AND state IN ('available', 'scheduled', 'retryable', 'pending');

-- TenantAdmissionStore.SCHEDULED
SELECT count(*) FROM jobs WHERE tenant_id = $1 AND state = 'scheduled';

-- TenantAdmissionStore.LOCK_ENQUEUE_TOKENS
SELECT enqueue_tokens, enqueue_tokens_at FROM tenants WHERE id = $1 AND max_enqueue_rate_limit IS NOT NULL
FOR UPDATE;

-- TenantAdmissionStore.SAVE_ENQUEUE_TOKENS
UPDATE tenants SET enqueue_tokens = $2, enqueue_tokens_at = $3 WHERE id = $1;
