-- Job progress (ojs-progress.md): the last report of a job's current attempt, kept beside the job so the hot path
-- never reads or writes it. One row per job that ever reported progress; it goes with the job.
CREATE TABLE job_progress (
    job_id     uuid        PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
    attempt    integer     NOT NULL CHECK (attempt >= 1),
    run        integer     NOT NULL CHECK (run >= 1),
    progress   double precision CHECK (progress IS NULL OR (progress >= 0 AND progress <= 1)),
    message    text        CHECK (message IS NULL OR length(message) <= 1000),
    data       jsonb       CHECK (data IS NULL OR jsonb_typeof(data) = 'object'),
    checkpoint jsonb       CHECK (checkpoint IS NULL OR jsonb_typeof(checkpoint) = 'object'),
    updated_at timestamptz NOT NULL
);
