-- The statements of store JobQueryStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- JobQueryStore.TIME_LIMIT
SET LOCAL statement_timeout = 5000;

-- JobQueryStore.CUSTOM_PLANS
SET LOCAL plan_cache_mode = force_custom_plan;

-- JobQueryStore.INTERACTIVE
SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0;

-- JobQueryStore.SETTINGS
SET LOCAL statement_timeout = 5000; SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL plan_cache_mode = force_custom_plan;
