-- The statements of store ProgressStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- ProgressStore.EXTEND_LEASE
UPDATE jobs SET lease_renewed_at = $3,
       lease_expires_at = LEAST(GREATEST(lease_expires_at,
                                         $3 + coalesce($4, visibility_timeout_ms) * interval '1 millisecond'),
                                coalesce(execution_deadline, 'infinity'::timestamptz))
WHERE id = $1 AND state = 'active' AND lease_expires_at > $3
  AND ($2::text IS NULL OR lease_owner IS NULL OR lease_owner = $2)
RETURNING attempt, run;

-- ProgressStore.STORED
SELECT attempt, run, progress, message, data::text AS data, updated_at
FROM job_progress WHERE job_id = $1;

-- ProgressStore.STORE
INSERT INTO job_progress (job_id, attempt, run, progress, message, data, updated_at)
VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, $7)
ON CONFLICT (job_id) DO UPDATE SET attempt = $2, run = $3, progress = $4, message = $5, data = $6::text::jsonb,
       updated_at = $7;

-- ProgressStore.READ
SELECT j.state, j.attempt, j.run, p.attempt AS p_attempt, p.run AS p_run, p.progress, p.message,
       p.data::text AS data, c.state::text AS checkpoint, p.updated_at
FROM all_jobs j LEFT JOIN job_progress p ON p.job_id = j.id
     LEFT JOIN job_checkpoints c ON c.job_id = j.id AND c.state IS NOT NULL
WHERE j.id = $1;
