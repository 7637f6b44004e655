-- Text search off the write path (docs/decisions/search-indexes-built-when-a-day-closes.md): no trigram index is
-- written by PUSH, FETCH, ACK or FAIL any more. The live table's (jobs_search_idx, written on every PUSH and every
-- retry) goes; the history's goes from the partitioned table, so a new day partition is created without one. The
-- maintenance task SearchIndexer builds <partition>_search_idx, CREATE INDEX CONCURRENTLY, on every history
-- partition that no longer takes the hot path's writes: each day partition once its UTC day has ended, the dead
-- letters and the default partition. Until then a search reads those rows in order, a bounded number per page
-- (store.JobQueryStore). Dropping an index that is there does not rewrite anything; the first maintenance run after
-- the upgrade builds the closed days' indexes again, one partition per run. Safe beside the previous version: it only
-- drops indexes; that version's searches stay correct, reading unindexed parts whole (docs/operations/upgrading.md).
DROP INDEX IF EXISTS jobs_search_idx;
DROP INDEX IF EXISTS job_history_search_idx;
