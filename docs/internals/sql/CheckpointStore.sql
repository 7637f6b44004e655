-- The statements of store CheckpointStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- CheckpointStore.GUARD_SAVE
UPDATE jobs SET checkpointed = true
WHERE id = $1 AND state = 'active' AND lease_expires_at > $2
  AND ($3::text IS NULL OR lease_owner IS NULL OR lease_owner = $3)
RETURNING id;

-- CheckpointStore.SAVE
INSERT INTO job_checkpoints (job_id, state, sequence, step_index, metadata, saved_at)
VALUES ($1, $2::text::jsonb, 1, $3, $4::text::jsonb, $5)
ON CONFLICT (job_id) DO UPDATE SET state = EXCLUDED.state, sequence = job_checkpoints.sequence + 1,
       step_index = EXCLUDED.step_index, metadata = EXCLUDED.metadata, saved_at = EXCLUDED.saved_at
RETURNING sequence, saved_at;

-- CheckpointStore.JOB_OF
SELECT state, lease_owner, lease_expires_at FROM all_jobs WHERE id = $1;

-- CheckpointStore.READ
SELECT j.state AS job_state, c.state::text AS state, c.sequence, c.step_index,
       c.metadata::text AS metadata, c.saved_at
FROM all_jobs j LEFT JOIN job_checkpoints c ON c.job_id = j.id AND c.state IS NOT NULL
WHERE j.id = $1;

-- CheckpointStore.DELETE
WITH c AS (UPDATE job_checkpoints SET state = NULL, step_index = NULL, metadata = NULL
           WHERE job_id = $1 AND state IS NOT NULL RETURNING job_id),
     f AS (UPDATE jobs SET checkpointed = false WHERE id = $1 AND checkpointed RETURNING id)
SELECT j.state, (SELECT count(*) FROM c) AS cleared FROM all_jobs j WHERE j.id = $1;

-- CheckpointStore.RESUME_POINTS
SELECT job_id, state::text AS state, sequence FROM job_checkpoints
WHERE job_id = ANY($1::uuid[]) AND state IS NOT NULL;

-- CheckpointStore.FLAG
UPDATE jobs SET checkpointed = true WHERE id = $1 AND NOT checkpointed;
