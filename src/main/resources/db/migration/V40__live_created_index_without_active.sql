-- The console's creation order of live jobs leaves active jobs out, so the claim no longer writes it.
--
-- The claim moves a job to active, a new row version that PostgreSQL enters in every index whose predicate it meets:
-- the primary key, the lease reaper's jobs_lease_check_idx and, until now, jobs_live_created_idx (created_at, id),
-- which held every live job. The console never read active jobs through it: every listing of the live table reads
-- `state <> 'active'` and `state = 'active'` as two branches (store.JobQueryStore), and the active branch reads
-- the few active jobs through the partial lease index (at most as many as workers hold) and sorts them. The index now
-- holds what the other branch reads: one index entry less for each claimed job (W2 1,179 -> 1,096 WAL bytes a job in
-- the cost budget, W4 4,807 -> 4,654; docs/performance/2026-11-30-live-columns-by-change.md).
--
-- Built in the migration's transaction: writes to the live table wait for the build (0.5 s at 1,000,000 live jobs on a
-- 2-core machine); the old index serves reads until it is dropped at the end.
ALTER INDEX jobs_live_created_idx RENAME TO jobs_live_created_all_idx;
CREATE INDEX jobs_live_created_idx ON jobs (created_at, id) WHERE state <> 'active';
DROP INDEX jobs_live_created_all_idx;
