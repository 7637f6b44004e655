-- Checkpoints (durable execution, ojs-durable-execution.md): the last state a job's worker saved, with a sequence
-- that only grows, kept across attempts and runs until the job finishes. The one home of a job's checkpoint: the
-- progress report's "checkpoint" (V11's job_progress.checkpoint) moves here, so a checkpoint saved through either
-- route is the same one (store.workers.CheckpointStore).
--
-- state NULL: the checkpoint was deleted; the row stays so that the next save continues the sequence (a JSON null
-- saved as the state is the jsonb 'null', not SQL NULL). No foreign key, as for job_progress since V18: a job moves
-- between jobs and job_history; the pruner removes the rows of finished and gone jobs.
CREATE TABLE job_checkpoints (
    job_id     uuid        PRIMARY KEY,
    state      jsonb,
    sequence   bigint      NOT NULL CHECK (sequence >= 1),
    step_index integer,
    metadata   jsonb       CHECK (metadata IS NULL OR jsonb_typeof(metadata) = 'object'),
    saved_at   timestamptz NOT NULL
);

-- The progress checkpoints stored so far become the jobs' checkpoints. job_progress.checkpoint itself stays, unused
-- from this version on, so that an instance of the previous version still running during a rolling upgrade keeps
-- answering progress reports (what it writes there is not seen by this version); a later migration drops it.
INSERT INTO job_checkpoints (job_id, state, sequence, saved_at)
    SELECT job_id, checkpoint, 1, updated_at FROM job_progress WHERE checkpoint IS NOT NULL;

-- The flag FETCH reads in the row it claims anyway: true while the job has a checkpoint, so only such a job costs
-- FETCH a read of job_checkpoints (one for all of a FETCH's flagged jobs). A column of both tables, as every job
-- column is, so a dead-letter retry brings it back with the row.
ALTER TABLE jobs ADD COLUMN checkpointed boolean NOT NULL DEFAULT false;
ALTER TABLE job_history ADD COLUMN checkpointed boolean NOT NULL DEFAULT false;
UPDATE jobs SET checkpointed = true WHERE id IN (SELECT job_id FROM job_checkpoints);
UPDATE job_history SET checkpointed = true WHERE id IN (SELECT job_id FROM job_checkpoints);

-- all_jobs gains the column (V23's rebuild_all_jobs).
SELECT rebuild_all_jobs();
