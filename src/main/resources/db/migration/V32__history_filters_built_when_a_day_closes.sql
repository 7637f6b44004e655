-- The console's filter indexes off the write path (docs/decisions/search-indexes-built-when-a-day-closes.md), as V31
-- took the trigram index off it: every finish (ACK, a final FAIL, CANCEL, expiry) wrote the state, queue, type and
-- tag indexes of V18 into today's partition, four of its eight index entries. They go from the partitioned table, so
-- a new day partition is created without them; the maintenance task SearchIndexer builds them, CREATE INDEX
-- CONCURRENTLY, as <partition>_state_created_idx, _queue_created_idx, _type_created_idx and _tags_idx beside <partition>_search_idx, on
-- every partition that no longer takes the hot path's writes (each day once it has ended, the dead letters and the
-- default partition). Until then a listing that filters by them reads that partition in order, a bounded number of
-- rows per page (store.JobQueryStore). Kept on every partition: the id, the listing's order (created_at, id), the
-- depth counts (queue, state), finished_at, and the partial unique-key, error-group and tenant indexes.
-- Dropping an index rewrites nothing; the first maintenance runs after the upgrade build the closed days' sets again,
-- one partition per run. Safe beside the previous version: it only drops indexes, and that version's listings stay
-- correct, reading today's partition by its other indexes (docs/operations/upgrading.md).
DROP INDEX IF EXISTS job_history_state_created_idx;
DROP INDEX IF EXISTS job_history_queue_created_idx;
DROP INDEX IF EXISTS job_history_type_created_idx;
DROP INDEX IF EXISTS job_history_tags_idx;
