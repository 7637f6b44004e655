-- The facts a refused ACK is answered from (state, lease, workflow of each job, wherever it is), read by a function
-- COMPLETE calls only when it refused something. COMPLETE read them with a lateral join on all_jobs, which PostgreSQL
-- opened and locked on every execution, refused or not: the live table, every partition of the history and their
-- indexes (a cached plan locks every relation it names; no pruning by id). An empty COMPLETE took 120 us with a
-- month of day partitions against 82 us through this function (79 us without the read at all), 97 against 87 us
-- with the nine of a 1,000,000-job seed (docs/performance/2026-11-30-campaign.md).
--
-- STRICT: COMPLETE passes NULL when nothing was refused (array_agg of no rows), and PostgreSQL then does not call the
-- function at all. STABLE: it reads with the calling statement's snapshot, as the lateral join did. plpgsql, so the
-- planner never inlines it back into the caller (its own plan is cached per connection on first use). One row per id
-- given, in the order given; the facts of the live row first when a job is in both tables (the LIMIT 1 over
-- all_jobs, whose first branch is the live table), NULLs for an id found nowhere.
CREATE FUNCTION job_facts(ids uuid[])
RETURNS TABLE (id uuid, state text, lease_owner text, lease_expires_at timestamptz, workflow_id uuid)
LANGUAGE plpgsql STABLE STRICT AS $fn$
BEGIN
    RETURN QUERY
    SELECT r.id, j.state, j.lease_owner, j.lease_expires_at, j.workflow_id
    FROM unnest(ids) WITH ORDINALITY AS r(id, n)
    LEFT JOIN LATERAL (
        SELECT a.state, a.lease_owner, a.lease_expires_at, a.workflow_id FROM all_jobs a WHERE a.id = r.id LIMIT 1) j
    ON true
    ORDER BY r.n;
END
$fn$;
