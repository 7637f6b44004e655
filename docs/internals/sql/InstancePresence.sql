-- The statements of store InstancePresence, rendered by RenderedSqlTest from the code: do not edit by hand.

-- InstancePresence.HOLD
SELECT pg_advisory_lock_shared($1, $2);

-- InstancePresence.PRESENT
SELECT objid::bigint AS key FROM pg_locks WHERE locktype = 'advisory' AND classid::bigint = $1 AND objsubid = 2 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database());
