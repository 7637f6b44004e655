-- The statements of store BackpressureStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- BackpressureStore.SET
INSERT INTO queues (name, created_at, max_depth, warning_threshold) VALUES ($1, $2, $3, $4)
ON CONFLICT (name) DO UPDATE SET max_depth = $3, warning_threshold = $4;

-- BackpressureStore.BOUNDED
SELECT name, max_depth, warning_threshold FROM queues WHERE max_depth IS NOT NULL;

-- BackpressureStore.DEPTH
SELECT count(*) FROM jobs WHERE queue = $1 AND state IN ('available', 'scheduled', 'retryable', 'pending');
