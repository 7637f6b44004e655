-- The hot path (PUSH, FETCH, ACK, FAIL) touches few indexes.
--
-- Before this migration every job transition wrote an entry into each of the jobs table's 16 indexes (a state
-- change is never a HOT update, since state is in the claim index's predicate), so a job that went
-- available -> active -> completed paid for the console's 8 search and sort indexes three times. Measured at
-- 9b8b6f4 (README "Performance"): processing 1,221 jobs/s, of which the console indexes alone cost ~25%.
--
-- The console's indexes are now partial: they hold only jobs in the "cold" states (scheduled, pending, retryable,
-- completed, cancelled, discarded). A job is written into them once, when it leaves the hot states (ACK, FAIL,
-- CANCEL) or when it is pushed scheduled/pending, never while it is pushed available or claimed. Console queries
-- read cold jobs through these indexes and the few live (available/active) jobs through the claim and lease
-- indexes (store.JobQueryStore, store.StatsStore). The list of cold states here must equal
-- store.HotStates.COLD_SQL (checked by HotStatesIndexTest).
--
-- The alternative, a hot table of live jobs plus a history table that ACK moves finished jobs into, writes the
-- same console index entries per job (once, at the move) plus a whole-row copy; measured side by side in the
-- README ("Performance", lean write path).

DROP INDEX jobs_created_idx;
DROP INDEX jobs_state_created_idx;
DROP INDEX jobs_queue_created_idx;
DROP INDEX jobs_type_created_idx;
DROP INDEX jobs_tags_idx;
DROP INDEX jobs_queue_state_idx;
DROP INDEX jobs_search_idx;
-- Lag is now read from the claim index (the next job a fetch would take), which every available job is in anyway.
DROP INDEX jobs_available_age_idx;
-- Heartbeats without a job list scan the active jobs through jobs_lease_idx: active jobs are few (bounded by
-- workers x fetch size), so a second index written on every claim is not worth it.
DROP INDEX jobs_lease_owner_idx;

CREATE INDEX jobs_created_idx ON jobs (created_at, id)
    WHERE state IN ('scheduled', 'pending', 'completed', 'retryable', 'cancelled', 'discarded');
CREATE INDEX jobs_state_created_idx ON jobs (state, created_at, id)
    WHERE state IN ('scheduled', 'pending', 'completed', 'retryable', 'cancelled', 'discarded');
CREATE INDEX jobs_queue_created_idx ON jobs (queue, created_at, id)
    WHERE state IN ('scheduled', 'pending', 'completed', 'retryable', 'cancelled', 'discarded');
CREATE INDEX jobs_type_created_idx ON jobs (type, created_at, id)
    WHERE state IN ('scheduled', 'pending', 'completed', 'retryable', 'cancelled', 'discarded');
CREATE INDEX jobs_tags_idx ON jobs USING gin (tags)
    WHERE state IN ('scheduled', 'pending', 'completed', 'retryable', 'cancelled', 'discarded');
CREATE INDEX jobs_queue_state_idx ON jobs (queue, state)
    WHERE state IN ('scheduled', 'pending', 'completed', 'retryable', 'cancelled', 'discarded');
CREATE INDEX jobs_search_idx ON jobs USING gin (job_search_text(args, meta, errors) gin_trgm_ops)
    WHERE state IN ('scheduled', 'pending', 'completed', 'retryable', 'cancelled', 'discarded');

-- Long-poll FETCH across instances: a statement that inserts available jobs tells every listening server which
-- queues got work (one notification per queue and transaction; PostgreSQL folds duplicates). A server that
-- misses one still finds the job on its next poll (steadfast.fetch.poll-interval).
CREATE FUNCTION steadfast_notify_inserted() RETURNS trigger
    LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM pg_notify('steadfast_jobs', q.queue)
    FROM (SELECT DISTINCT queue FROM inserted WHERE state = 'available') q;
    RETURN NULL;
END
$$;

CREATE TRIGGER jobs_notify_inserted AFTER INSERT ON jobs
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION steadfast_notify_inserted();
