-- The statements of store WebhookSql, rendered by RenderedSqlTest from the code: do not edit by hand.

-- WebhookSql.INSERT_SUBSCRIPTION
INSERT INTO webhook_subscriptions (id, tenant_id, url, events, queues, job_types, active, secret, metadata, timeout_ms, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9::text::jsonb, '{}'), $10, $11, $11) RETURNING id, tenant_id, url, events, queues, job_types, active, secret, previous_secret, previous_secret_until, metadata::text AS metadata, timeout_ms, created_at, updated_at;

-- WebhookSql.LIST_SUBSCRIPTIONS
SELECT id, tenant_id, url, events, queues, job_types, active, secret, previous_secret, previous_secret_until, metadata::text AS metadata, timeout_ms, created_at, updated_at FROM webhook_subscriptions WHERE ($1::text IS NULL OR tenant_id = $1) AND ($2::text IS NULL OR id > $2) ORDER BY id LIMIT $3;

-- WebhookSql.FIND_SUBSCRIPTION
SELECT id, tenant_id, url, events, queues, job_types, active, secret, previous_secret, previous_secret_until, metadata::text AS metadata, timeout_ms, created_at, updated_at FROM webhook_subscriptions WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2);

-- WebhookSql.ACTIVE_SUBSCRIPTIONS
SELECT id, tenant_id, events, queues, job_types FROM webhook_subscriptions WHERE active;

-- WebhookSql.UPDATE_SUBSCRIPTION
UPDATE webhook_subscriptions SET url = coalesce($3, url), events = coalesce($4, events), queues = coalesce($5, queues), job_types = coalesce($6, job_types), active = coalesce($7, active), metadata = coalesce($8::text::jsonb, metadata), timeout_ms = coalesce($9, timeout_ms), updated_at = $10 WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2) RETURNING id, tenant_id, url, events, queues, job_types, active, secret, previous_secret, previous_secret_until, metadata::text AS metadata, timeout_ms, created_at, updated_at;

-- WebhookSql.ROTATE_SECRET
UPDATE webhook_subscriptions SET previous_secret = secret, previous_secret_until = $4, secret = $3, updated_at = $5 WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2) RETURNING id, tenant_id, url, events, queues, job_types, active, secret, previous_secret, previous_secret_until, metadata::text AS metadata, timeout_ms, created_at, updated_at;

-- WebhookSql.DELETE_SUBSCRIPTION
DELETE FROM webhook_subscriptions WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2) RETURNING id;

-- WebhookSql.DEACTIVATE_SUBSCRIPTION
UPDATE webhook_subscriptions SET active = false, updated_at = $2 WHERE id = $1;

-- WebhookSql.INSERT_DELIVERIES
INSERT INTO webhook_deliveries (id, subscription_id, event_id, event_type, subject, body, next_attempt_at,
                                created_at)
SELECT u.id, u.sub, u.event_id, u.event_type, u.subject, u.body, $7, $7
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
     AS u(id, sub, event_id, event_type, subject, body)
JOIN webhook_subscriptions s ON s.id = u.sub
WHERE s.tenant_id IS NULL
   OR u.subject ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      AND EXISTS (SELECT 1 FROM all_jobs j WHERE j.id = u.subject::uuid AND j.tenant_id = s.tenant_id)
ON CONFLICT (subscription_id, event_id) DO NOTHING;

-- WebhookSql.CLAIM_DELIVERIES
WITH due AS (
    SELECT d.id FROM webhook_deliveries d
    WHERE d.state = 'pending' AND d.next_attempt_at <= $1
      AND EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = d.subscription_id AND s.active)
    ORDER BY d.next_attempt_at LIMIT $2 FOR UPDATE OF d SKIP LOCKED)
UPDATE webhook_deliveries d SET attempts = d.attempts + 1, lease_owner = $4,
       next_attempt_at = $1 + make_interval(secs => s.timeout_ms / 1000.0) + $3 * interval '1 millisecond'
FROM due, webhook_subscriptions s
WHERE d.id = due.id AND s.id = d.subscription_id
RETURNING d.id, d.subscription_id, d.event_type, d.body, d.attempts, s.url, s.secret, s.previous_secret,
          s.previous_secret_until, s.timeout_ms;

-- WebhookSql.RECORD_ATTEMPT
UPDATE webhook_deliveries d SET state = r.state, next_attempt_at = coalesce(r.next_at, d.next_attempt_at),
       lease_owner = NULL, last_status = r.status, last_error = r.error, last_duration_ms = r.duration_ms,
       last_attempt_at = r.at, finished_at = CASE WHEN r.state = 'pending' THEN NULL ELSE r.at END
FROM unnest($1::text[], $2::text[], $3::int4[], $4::text[], $5::timestamptz[], $6::int4[], $7::text[],
            $8::int4[], $9::timestamptz[])
     AS r(id, owner, attempt, state, next_at, status, error, duration_ms, at)
WHERE d.id = r.id AND d.lease_owner = r.owner AND d.attempts = r.attempt AND d.state = 'pending'
RETURNING d.id, r.owner, r.attempt;

-- WebhookSql.LIST_DELIVERIES
SELECT id, subscription_id, event_id, event_type, subject, body, state, attempts, next_attempt_at, lease_owner, last_status, last_error, last_duration_ms, last_attempt_at, created_at, finished_at FROM webhook_deliveries d WHERE ($1::text IS NULL OR subscription_id = $1) AND ($2::text IS NULL OR state = $2) AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = d.subscription_id AND s.tenant_id = $3)) AND ($4::text IS NULL OR id < $4) ORDER BY id DESC LIMIT $5;

-- WebhookSql.FIND_DELIVERY
SELECT id, subscription_id, event_id, event_type, subject, body, state, attempts, next_attempt_at, lease_owner, last_status, last_error, last_duration_ms, last_attempt_at, created_at, finished_at FROM webhook_deliveries d WHERE id = $1 AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = d.subscription_id AND s.tenant_id = $2));

-- WebhookSql.RETRY_DELIVERY
UPDATE webhook_deliveries d SET state = 'pending', next_attempt_at = $3, finished_at = NULL, attempts = CASE WHEN state = 'pending' THEN attempts ELSE 0 END WHERE id = $1 AND (state <> 'pending' OR lease_owner IS NULL) AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = d.subscription_id AND s.tenant_id = $2)) RETURNING id, subscription_id, event_id, event_type, subject, body, state, attempts, next_attempt_at, lease_owner, last_status, last_error, last_duration_ms, last_attempt_at, created_at, finished_at;

-- WebhookSql.PRUNE_FINISHED
DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE state <> 'pending' AND finished_at < $1 ORDER BY finished_at LIMIT $2 FOR UPDATE SKIP LOCKED);

-- WebhookSql.COUNT_BY_STATE
SELECT subscription_id, state, count(*) AS n FROM webhook_deliveries WHERE subscription_id = ANY($1) GROUP BY subscription_id, state;
