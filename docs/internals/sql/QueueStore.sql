-- The statements of store QueueStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- QueueStore.PAUSE
INSERT INTO queues (name, paused, paused_at, created_at) VALUES ($1, true, $2, $2)
ON CONFLICT (name) DO UPDATE
SET paused = true, paused_at = CASE WHEN queues.paused THEN queues.paused_at ELSE $2 END RETURNING name, paused, paused_at, created_at;

-- QueueStore.RESUME
UPDATE queues SET paused = false, paused_at = NULL WHERE name = $1 RETURNING name, paused, paused_at, created_at;

-- QueueStore.FIND
SELECT name, paused, paused_at, created_at FROM queues WHERE name = $1;
