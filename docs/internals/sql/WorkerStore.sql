-- The statements of store WorkerStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- WorkerStore.EXTEND_LEASES
UPDATE jobs SET lease_renewed_at = $3,
       lease_expires_at = LEAST(GREATEST(lease_expires_at,
                                         $3 + coalesce($4, visibility_timeout_ms) * interval '1 millisecond'),
                                coalesce(execution_deadline, 'infinity'::timestamptz))
WHERE state = 'active' AND lease_expires_at > $3 AND lease_owner = $2 AND $1::uuid[] IS NULL
RETURNING id, meta->>'test_directive' AS test_directive;

-- WorkerStore.EXTEND_LEASES_OF
UPDATE jobs SET lease_renewed_at = $3,
       lease_expires_at = LEAST(GREATEST(lease_expires_at,
                                         $3 + coalesce($4, visibility_timeout_ms) * interval '1 millisecond'),
                                coalesce(execution_deadline, 'infinity'::timestamptz))
WHERE id = ANY($1::uuid[]) AND state = ANY($5::text[] COLLATE "C") AND lease_expires_at > $3
  AND (lease_owner IS NULL OR lease_owner = $2)
RETURNING id, meta->>'test_directive' AS test_directive;

-- WorkerStore.FOREIGN_LEASES
SELECT id, lease_owner FROM jobs
WHERE id = ANY($1::uuid[]) AND state = ANY($3::text[] COLLATE "C") AND lease_owner IS NOT NULL
  AND lease_owner <> $2;

-- WorkerStore.TOUCH_WORKER
INSERT INTO workers (id, first_seen, last_seen, active_jobs, hostname, queues)
VALUES ($1, $2, $2, $3, $4, $5)
ON CONFLICT (id) DO UPDATE SET last_seen = $2, active_jobs = $3,
       hostname = coalesce($4, workers.hostname), queues = coalesce($5, workers.queues)
RETURNING directive;

-- WorkerStore.SET_DIRECTIVE
INSERT INTO workers (id, first_seen, last_seen, directive, directive_set_at) VALUES ($1, $2, $2, $3, $2)
ON CONFLICT (id) DO UPDATE SET directive = $3, directive_set_at = $2
RETURNING id;

-- WorkerStore.LIST_WORKERS
SELECT w.id, w.directive, w.first_seen, w.last_seen, w.hostname, w.queues,
       (SELECT count(*) FROM jobs j WHERE j.state = 'active' AND j.lease_owner = w.id) AS held
FROM workers w ORDER BY w.last_seen DESC LIMIT $1;
