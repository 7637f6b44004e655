-- Webhooks (ojs-webhooks.md): subscriptions and their deliveries. Nothing here is read or written by PUSH, FETCH,
-- ACK or FAIL: a delivery row is written after an event, only when an active subscription matches it
-- (webhooks.WebhookFanout), and the dispatcher claims due deliveries on its own tick (store.webhooks.WebhookSql).
--
-- A subscription's id is 'sub_' and a UUIDv7; tenant_id NULL is a subscription of the whole server (it sees every
-- event), otherwise it sees only events about its tenant's jobs (ojs-webhooks 9.3). previous_secret is the secret a
-- rotation replaced; deliveries are signed with it too until previous_secret_until (ojs-webhooks 8.3).
CREATE TABLE webhook_subscriptions (
    id                    text        PRIMARY KEY,
    tenant_id             text,
    url                   text        NOT NULL,
    events                text[]      NOT NULL CHECK (cardinality(events) BETWEEN 1 AND 100),
    queues                text[]      NOT NULL DEFAULT '{}',
    job_types             text[]      NOT NULL DEFAULT '{}',
    active                boolean     NOT NULL DEFAULT true,
    secret                text        NOT NULL,
    previous_secret       text,
    previous_secret_until timestamptz,
    metadata              jsonb       NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
    timeout_ms            integer     NOT NULL DEFAULT 30000 CHECK (timeout_ms BETWEEN 1000 AND 60000),
    created_at            timestamptz NOT NULL,
    updated_at            timestamptz NOT NULL,
    CONSTRAINT webhook_previous_secret_has_an_end CHECK ((previous_secret IS NULL) = (previous_secret_until IS NULL))
);

CREATE INDEX webhook_subscriptions_tenant_idx ON webhook_subscriptions (tenant_id, id);

-- One delivery per (subscription, event): its id ('del_' and a UUIDv7) is the X-OJS-Delivery-ID of every attempt
-- (ojs-webhooks 7.5), and the unique pair makes writing it twice (an event handed over again) harmless. body is the
-- exact text that is signed and sent, so every attempt sends the same bytes.
--
-- A pending delivery is due at next_attempt_at. A claim moves next_attempt_at to the end of its lease and names its
-- instance in lease_owner, so one partial index serves both "due" and "lease ended" (an instance that died mid-send
-- leaves a delivery that comes due again when its lease ends), and an outcome is written only by the lease's holder.
CREATE TABLE webhook_deliveries (
    id               text        PRIMARY KEY,
    subscription_id  text        NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
    event_id         text        NOT NULL,
    event_type       text        NOT NULL,
    subject          text,
    body             text        NOT NULL,
    state            text        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
    attempts         integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at  timestamptz NOT NULL,
    lease_owner      text,
    last_status      integer,
    last_error       text,
    last_duration_ms integer,
    last_attempt_at  timestamptz,
    created_at       timestamptz NOT NULL,
    finished_at      timestamptz,
    CONSTRAINT webhook_delivery_once_per_event UNIQUE (subscription_id, event_id),
    CONSTRAINT webhook_finished_has_a_time CHECK ((state = 'pending') = (finished_at IS NULL))
);

-- The dispatcher's claim: due pending deliveries in time order.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
-- A subscription's deliveries, newest first (the admin API's and the console's listing).
CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id, id DESC);
-- Every delivery newest first, and the pruner's finished deliveries by age.
CREATE INDEX webhook_deliveries_finished_idx ON webhook_deliveries (finished_at) WHERE state <> 'pending';
