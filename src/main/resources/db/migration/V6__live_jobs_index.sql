-- The console's listings read live (available/active) jobs separately from cold ones (V5__lean_hot_path.sql).
-- Measured at 1,000,000 jobs (70,000 of them live) on a busy 2-core machine: without an index of their own, the live
-- half of a page was a scan of the whole table (350 ms) and a text search over live jobs took 0.5-5 s.

-- Creation order of live jobs, written on PUSH and on FETCH (the one b-tree the console adds to the hot path): a page
-- of live jobs, filtered or not, is an index range scan that stops after 51 rows (3 ms).
CREATE INDEX jobs_live_created_idx ON jobs (created_at, id) WHERE state IN ('available', 'active');

-- Text search over waiting jobs: the trigram index of V3 for available jobs only, written once on PUSH (a FETCH makes
-- the job active, which leaves it; GIN's pending list keeps the insert cheap). Active jobs are few and are searched
-- through jobs_live_created_idx.
CREATE INDEX jobs_search_available_idx ON jobs USING gin (job_search_text(args, meta, errors) gin_trgm_ops)
    WHERE state = 'available';

-- The planner ignores the statistics of partial expression indexes, so since V5 it could no longer tell a rare search
-- string from a common one (a rare one walked the whole creation-order index until the 5 s cut-off). Statistics on
-- the expression itself give it back: a rare string is a bitmap scan of the trigram index again (6 ms).
CREATE STATISTICS jobs_search_text_stats ON (job_search_text(args, meta, errors)) FROM jobs;
ANALYZE jobs;
