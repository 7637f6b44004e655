-- The statements of store JobQueryStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- JobQueryStore.TIME_LIMIT
SET LOCAL statement_timeout = 5000;

-- JobQueryStore.CUSTOM_PLANS
SET LOCAL plan_cache_mode = force_custom_plan;

-- JobQueryStore.INTERACTIVE
SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0;

-- JobQueryStore.SETTINGS
SET LOCAL statement_timeout = 5000; SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL plan_cache_mode = force_custom_plan;

-- JobQueryStore.plainListing(every job, newest first)
(SELECT id, type, queue, state, priority, attempt, max_attempts, tags, created_at, run_at, dead_letter, run, left(error->>'type', 200) AS error_type, left(error->>'message', 300) AS error_message, left(args::text, 121) AS args_preview FROM jobs WHERE state <> 'active' ORDER BY created_at DESC, id DESC LIMIT $1) UNION ALL (SELECT id, type, queue, state, priority, attempt, max_attempts, tags, created_at, run_at, dead_letter, run, left(error->>'type', 200) AS error_type, left(error->>'message', 300) AS error_message, left(args::text, 121) AS args_preview FROM jobs WHERE state = 'active' ORDER BY created_at DESC, id DESC LIMIT $1) UNION ALL (SELECT id, type, queue, state, priority, attempt, max_attempts, tags, created_at, run_at, dead_letter, run, left(error->>'type', 200) AS error_type, left(error->>'message', 300) AS error_message, left(args::text, 121) AS args_preview FROM job_history WHERE true ORDER BY created_at DESC, id DESC LIMIT $1) ORDER BY created_at DESC, id DESC LIMIT $1;

-- JobQueryStore.plainListing(every job, the next page)
(SELECT id, type, queue, state, priority, attempt, max_attempts, tags, created_at, run_at, dead_letter, run, left(error->>'type', 200) AS error_type, left(error->>'message', 300) AS error_message, left(args::text, 121) AS args_preview FROM jobs WHERE state <> 'active' AND (created_at, id) < ($1, $2) ORDER BY created_at DESC, id DESC LIMIT $3) UNION ALL (SELECT id, type, queue, state, priority, attempt, max_attempts, tags, created_at, run_at, dead_letter, run, left(error->>'type', 200) AS error_type, left(error->>'message', 300) AS error_message, left(args::text, 121) AS args_preview FROM jobs WHERE state = 'active' AND (created_at, id) < ($1, $2) ORDER BY created_at DESC, id DESC LIMIT $3) UNION ALL (SELECT id, type, queue, state, priority, attempt, max_attempts, tags, created_at, run_at, dead_letter, run, left(error->>'type', 200) AS error_type, left(error->>'message', 300) AS error_message, left(args::text, 121) AS args_preview FROM job_history WHERE true AND (created_at, id) < ($1, $2) ORDER BY created_at DESC, id DESC LIMIT $3) ORDER BY created_at DESC, id DESC LIMIT $3;

-- JobQueryStore.plainListing(state available)
SELECT id, type, queue, state, priority, attempt, max_attempts, tags, created_at, run_at, dead_letter, run, left(error->>'type', 200) AS error_type, left(error->>'message', 300) AS error_message, left(args::text, 121) AS args_preview FROM jobs WHERE true AND state = $1 ORDER BY created_at DESC, id DESC LIMIT $2;

-- JobQueryStore.plainListing(queue and type, oldest first)
(SELECT id, type, queue, state, priority, attempt, max_attempts, tags, created_at, run_at, dead_letter, run, left(error->>'type', 200) AS error_type, left(error->>'message', 300) AS error_message, left(args::text, 121) AS args_preview FROM jobs WHERE state <> 'active' AND queue = $1 AND type = $2 ORDER BY created_at ASC, id ASC LIMIT $3) UNION ALL (SELECT id, type, queue, state, priority, attempt, max_attempts, tags, created_at, run_at, dead_letter, run, left(error->>'type', 200) AS error_type, left(error->>'message', 300) AS error_message, left(args::text, 121) AS args_preview FROM jobs WHERE state = 'active' AND queue = $1 AND type = $2 ORDER BY created_at ASC, id ASC LIMIT $3) UNION ALL (SELECT id, type, queue, state, priority, attempt, max_attempts, tags, created_at, run_at, dead_letter, run, left(error->>'type', 200) AS error_type, left(error->>'message', 300) AS error_message, left(args::text, 121) AS args_preview FROM job_history WHERE true AND queue = $1 AND type = $2 ORDER BY created_at ASC, id ASC LIMIT $3) ORDER BY created_at ASC, id ASC LIMIT $3;
