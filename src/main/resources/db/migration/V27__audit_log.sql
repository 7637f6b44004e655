-- The audit log: one row per change made from the console or the admin API (who, what, on what, how many jobs, when,
-- from where, and how it ended), written by audit.AuditLog. Append-only: the trigger below refuses every UPDATE, so a
-- row once written never changes; the only DELETE is the retention (audit.AuditPruner, steadfast.audit.retention),
-- which removes the oldest rows in bounded batches.
CREATE TABLE audit_log (
    id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at      timestamptz NOT NULL,
    actor   text NOT NULL,
    via     text NOT NULL CHECK (via IN ('console', 'api')),
    action  text NOT NULL,
    scope   jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(scope) = 'object'),
    jobs    bigint CHECK (jobs >= 0),
    client  text,
    outcome text NOT NULL CHECK (outcome IN ('ok', 'refused', 'rejected', 'failed')),
    status  int NOT NULL
);

-- The page and the API read newest first in keyset pages of id (the primary key); a filter by actor or action walks
-- its own (column, id) index in the same order, and a time range is the (at, id) index's range.
CREATE INDEX audit_log_actor_idx ON audit_log (actor, id);
CREATE INDEX audit_log_action_idx ON audit_log (action, id);
CREATE INDEX audit_log_at_idx ON audit_log (at, id);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only: rows are never updated';
END $$;

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
