package dev.steadfast.store.webhooks;

/**
 * The named statements of webhooks (V34). None runs on the hot path: subscriptions change through the admin API,
 * deliveries are written after an event only when an active subscription matches it, and the dispatcher claims due
 * deliveries on its own tick.
 */
final class WebhookSql {

    private WebhookSql() {
    }

    static final String SUBSCRIPTION_COLUMNS = "id, tenant_id, url, events, queues, job_types, active, secret,"
            + " previous_secret, previous_secret_until, metadata::text AS metadata, timeout_ms, created_at, updated_at";

    static final String INSERT_SUBSCRIPTION = "INSERT INTO webhook_subscriptions (id, tenant_id, url, events, queues,"
            + " job_types, active, secret, metadata, timeout_ms, created_at, updated_at)"
            + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9::text::jsonb, '{}'), $10, $11, $11) RETURNING " + SUBSCRIPTION_COLUMNS;

    /**
     * A page of subscriptions in id order (ids are UUIDv7: creation order) after the id $2 (NULL: the first page);
     * $1 NULL lists every tenant's, otherwise only that tenant's (the tenant index serves both).
     */
    static final String LIST_SUBSCRIPTIONS = "SELECT " + SUBSCRIPTION_COLUMNS + " FROM webhook_subscriptions"
            + " WHERE ($1::text IS NULL OR tenant_id = $1) AND ($2::text IS NULL OR id > $2) ORDER BY id LIMIT $3";

    /** One subscription; $2 NULL finds it whatever its tenant, otherwise only when it is that tenant's. */
    static final String FIND_SUBSCRIPTION = "SELECT " + SUBSCRIPTION_COLUMNS + " FROM webhook_subscriptions"
            + " WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2)";

    /** Every active subscription: what the fan-out matches events against, reread by each instance on its tick. */
    static final String ACTIVE_SUBSCRIPTIONS = "SELECT id, tenant_id, events, queues, job_types"
            + " FROM webhook_subscriptions WHERE active";

    /**
     * PATCH: each of url, events, queues, job_types, active, metadata, timeout_ms changes only when given (NULL keeps
     * it; the filter lists are replaced whole, an empty list clears them). Scoped like FIND_SUBSCRIPTION.
     */
    static final String UPDATE_SUBSCRIPTION = "UPDATE webhook_subscriptions SET"
            + " url = coalesce($3, url), events = coalesce($4, events), queues = coalesce($5, queues),"
            + " job_types = coalesce($6, job_types), active = coalesce($7, active),"
            + " metadata = coalesce($8::text::jsonb, metadata), timeout_ms = coalesce($9, timeout_ms), updated_at = $10"
            + " WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2) RETURNING " + SUBSCRIPTION_COLUMNS;

    /**
     * A new secret; the one it replaces keeps signing until $4 (ojs-webhooks 8.3: both sign during the grace
     * period). A second rotation within the period drops the oldest secret: two at most ever sign.
     */
    static final String ROTATE_SECRET = "UPDATE webhook_subscriptions SET previous_secret = secret,"
            + " previous_secret_until = $4, secret = $3, updated_at = $5"
            + " WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2) RETURNING " + SUBSCRIPTION_COLUMNS;

    /** Deletes a subscription; its deliveries go with it (ON DELETE CASCADE: pending ones are cancelled, 6.5). */
    static final String DELETE_SUBSCRIPTION = "DELETE FROM webhook_subscriptions"
            + " WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2) RETURNING id";

    /** A receiver answered 410 Gone: its subscription stops receiving (an operator switches it back on). */
    static final String DEACTIVATE_SUBSCRIPTION = "UPDATE webhook_subscriptions SET active = false, updated_at = $2"
            + " WHERE id = $1";

    /**
     * The deliveries of a batch of events, one per (subscription, event) pair of the arrays (unnest), due at $7.
     * A subscription scoped to a tenant gets an event only when the event's subject is a job of that tenant (read
     * from all_jobs by primary key, only for such pairs: events do not carry a tenant); a subscription deleted
     * meanwhile gets nothing; a pair written before (the same event handed over twice) is skipped by the unique pair.
     */
    static final String INSERT_DELIVERIES = """
            INSERT INTO webhook_deliveries (id, subscription_id, event_id, event_type, subject, body, next_attempt_at,
                                            created_at)
            SELECT u.id, u.sub, u.event_id, u.event_type, u.subject, u.body, $7, $7
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
                 AS u(id, sub, event_id, event_type, subject, body)
            JOIN webhook_subscriptions s ON s.id = u.sub
            WHERE s.tenant_id IS NULL
               OR u.subject ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                  AND EXISTS (SELECT 1 FROM all_jobs j WHERE j.id = u.subject::uuid AND j.tenant_id = s.tenant_id)
            ON CONFLICT (subscription_id, event_id) DO NOTHING""";

    /**
     * The dispatcher's claim: up to $2 pending deliveries due at $1 whose subscription is active, oldest due first,
     * FOR UPDATE SKIP LOCKED in a CTE (taken once; instances never claim the same rows), then leased to the
     * instance $4 for the subscription's timeout and $3 ms more (next_attempt_at moves to the lease's end, so a delivery whose instance died comes due
     * again then) with its attempt counted. Returns what the send needs, secrets included.
     */
    static final String CLAIM_DELIVERIES = """
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
                      s.previous_secret_until, s.timeout_ms""";

    /**
     * Attempts' outcomes, one row of the arrays each (the dispatcher gathers the attempts that end together into one
     * statement: webhooks.WebhookDispatcher), each written only by the lease's holder for the attempt it claimed
     * (owner, attempt): a late answer from an instance whose lease ran out (and whose delivery another instance took)
     * changes nothing. State 'delivered' or 'dead' finishes a delivery at its time; 'pending' makes it due again at
     * next_at. Answers the attempts it wrote (id, owner, attempt: one delivery may have a late attempt and the
     * current one in the same batch).
     */
    static final String RECORD_ATTEMPT = """
            UPDATE webhook_deliveries d SET state = r.state, next_attempt_at = coalesce(r.next_at, d.next_attempt_at),
                   lease_owner = NULL, last_status = r.status, last_error = r.error, last_duration_ms = r.duration_ms,
                   last_attempt_at = r.at, finished_at = CASE WHEN r.state = 'pending' THEN NULL ELSE r.at END
            FROM unnest($1::text[], $2::text[], $3::int4[], $4::text[], $5::timestamptz[], $6::int4[], $7::text[],
                        $8::int4[], $9::timestamptz[])
                 AS r(id, owner, attempt, state, next_at, status, error, duration_ms, at)
            WHERE d.id = r.id AND d.lease_owner = r.owner AND d.attempts = r.attempt AND d.state = 'pending'
            RETURNING d.id, r.owner, r.attempt""";

    static final String DELIVERY_COLUMNS = "id, subscription_id, event_id, event_type, subject, body, state, attempts,"
            + " next_attempt_at, lease_owner, last_status, last_error, last_duration_ms, last_attempt_at, created_at,"
            + " finished_at";

    /**
     * A page of deliveries, newest first (ids are UUIDv7), before the id $4 (NULL: the first page), of the
     * subscription $1 (NULL: every one) in the state $2 (NULL: any), of the tenant $3's subscriptions (NULL: any).
     * One subscription's page reads its (subscription_id, id) index; all of them read the primary key backwards.
     */
    static final String LIST_DELIVERIES = "SELECT " + DELIVERY_COLUMNS + " FROM webhook_deliveries d"
            + " WHERE ($1::text IS NULL OR subscription_id = $1) AND ($2::text IS NULL OR state = $2)"
            + " AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM webhook_subscriptions s"
            + " WHERE s.id = d.subscription_id AND s.tenant_id = $3))"
            + " AND ($4::text IS NULL OR id < $4) ORDER BY id DESC LIMIT $5";

    static final String FIND_DELIVERY = "SELECT " + DELIVERY_COLUMNS + " FROM webhook_deliveries d WHERE id = $1"
            + " AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM webhook_subscriptions s"
            + " WHERE s.id = d.subscription_id AND s.tenant_id = $2))";

    /**
     * Retry now (6.2's replay of dead deliveries, and redelivery): a dead or delivered delivery starts a new series
     * of attempts, due at $3; a pending one not being sent (no lease) is due at $3. One being sent is left alone
     * (answered as a conflict), so it is never sent twice at once.
     */
    static final String RETRY_DELIVERY = "UPDATE webhook_deliveries d SET state = 'pending', next_attempt_at = $3,"
            + " finished_at = NULL, attempts = CASE WHEN state = 'pending' THEN attempts ELSE 0 END"
            + " WHERE id = $1 AND (state <> 'pending' OR lease_owner IS NULL)"
            + " AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM webhook_subscriptions s"
            + " WHERE s.id = d.subscription_id AND s.tenant_id = $2))"
            + " RETURNING " + DELIVERY_COLUMNS;

    /** Retention: finished deliveries older than $1, a bounded batch ($2) at a time, oldest first. */
    static final String PRUNE_FINISHED = "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM"
            + " webhook_deliveries WHERE state <> 'pending' AND finished_at < $1 ORDER BY finished_at LIMIT $2"
            + " FOR UPDATE SKIP LOCKED)";

    /** Counts by state for one subscription (the console's and the subscription answer's summary). */
    static final String COUNT_BY_STATE = "SELECT subscription_id, state, count(*) AS n FROM webhook_deliveries"
            + " WHERE subscription_id = ANY($1) GROUP BY subscription_id, state";
}
