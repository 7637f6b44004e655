-- The statements of store TableStatisticsStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- TableStatisticsStore.READ_JOBS
SELECT c.reltuples::int8 AS analyzed, s.n_live_tup AS live FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.oid = 'jobs'::regclass;

-- TableStatisticsStore.ANALYZE_JOBS
ANALYZE (SKIP_LOCKED) jobs;
