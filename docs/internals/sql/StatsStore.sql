-- The statements of store StatsStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- StatsStore.COUNT_BY_QUEUE_AND_STATE
SELECT queue, state, count(*) FROM jobs GROUP BY queue, state UNION ALL SELECT queue, state, count(*) FROM job_history GROUP BY queue, state;

-- StatsStore.DEAD_LETTERS_BY_QUEUE
SELECT queue, count(*) FROM job_history_dead GROUP BY queue;

-- StatsStore.OLDEST_AVAILABLE
SELECT q.name, (SELECT j.run_at FROM jobs j
                WHERE j.queue = q.name AND j.state IN ('available', 'scheduled', 'retryable')
                  AND j.state = 'available'
                ORDER BY j.priority DESC, j.run_at, j.id LIMIT 1) AS oldest
FROM queues q;

-- StatsStore.FINISHED_PER_MINUTE
SELECT (extract(epoch FROM finished_at)::bigint / 60) AS minute, state = 'completed' AS ok, count(*)
FROM job_history WHERE state IN ('completed', 'discarded') AND finished_at >= $1
GROUP BY 1, 2;

-- StatsStore.LOCK_ROLLUP
SELECT pg_try_advisory_xact_lock(hashtext('steadfast.queue_minutes')) AS got,
(SELECT through FROM queue_minute_rollup WHERE id = 1) AS through;

-- StatsStore.ROLL_UP_QUEUE_MINUTES
INSERT INTO queue_minutes (minute, queue, finished, waited, wait_ms)
SELECT date_trunc('minute', finished_at), queue, count(*),
       count(*) FILTER (WHERE started_at IS NOT NULL AND enqueued_at IS NOT NULL),
       coalesce(sum(greatest(0, extract(epoch FROM started_at - enqueued_at) * 1000))
                FILTER (WHERE started_at IS NOT NULL AND enqueued_at IS NOT NULL), 0)::bigint
FROM job_history WHERE state IN ('completed', 'discarded') AND finished_at >= $1 AND finished_at < $2
GROUP BY 1, 2
ON CONFLICT (minute, queue) DO NOTHING;

-- StatsStore.ADVANCE_ROLLUP
INSERT INTO queue_minute_rollup (id, through) VALUES (1, $1)
ON CONFLICT (id) DO UPDATE SET through = greatest(queue_minute_rollup.through, excluded.through);

-- StatsStore.PRUNE_QUEUE_MINUTES
DELETE FROM queue_minutes WHERE minute < $1;

-- StatsStore.QUEUE_MINUTES_SINCE
SELECT queue, (extract(epoch FROM minute)::bigint / 60) AS minute, finished, waited, wait_ms,
       (SELECT through FROM queue_minute_rollup WHERE id = 1) AS through
FROM queue_minutes WHERE minute >= $1
UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, (SELECT through FROM queue_minute_rollup WHERE id = 1);

-- StatsStore.COUNT_BY_STATE_IN_QUEUE
SELECT state, count(*) FROM jobs WHERE queue = $1 GROUP BY state UNION ALL SELECT state, count(*) FROM job_history WHERE queue = $1 GROUP BY state;

-- StatsStore.DEAD_LETTERS_IN_QUEUE
SELECT count(*) FROM job_history_dead WHERE queue = $1;

-- StatsStore.DEAD_LETTER_GROWTH
SELECT count(*), count(*) FILTER (WHERE discarded_at >= $1), count(*) FILTER (WHERE discarded_at >= $2) FROM job_history_dead;

-- StatsStore.FINISHED_SINCE
SELECT count(*) FILTER (WHERE state = 'completed' AND finished_at >= $1),
       count(*) FILTER (WHERE state = 'discarded' AND finished_at >= $1),
       count(*) FILTER (WHERE state = 'completed'),
       count(*) FILTER (WHERE state = 'discarded')
FROM job_history_done WHERE state IN ('completed', 'discarded') AND finished_at >= $2;
