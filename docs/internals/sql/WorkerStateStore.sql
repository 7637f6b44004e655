-- The statements of store WorkerStateStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- WorkerStateStore.REPORT
INSERT INTO workers (id, first_seen, last_seen, state, state_at) VALUES ($1, $2, $2, $3, $2)
ON CONFLICT (id) DO UPDATE SET state = $3, state_at = $2, last_seen = $2;

-- WorkerStateStore.SEEN
INSERT INTO workers (id, first_seen, last_seen) VALUES ($1, $2, $2)
ON CONFLICT (id) DO UPDATE SET last_seen = GREATEST(workers.last_seen, $2);

-- WorkerStateStore.FIND
SELECT state, state_at, directive, last_seen, active_jobs, hostname FROM workers WHERE id = $1;
