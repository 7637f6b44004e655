-- Cron overlap policy 'enqueue' (ojs-cron.md 6.1) and the workflow metadata's started_at (ojs-workflows.md 3.3).

-- 'enqueue': an occurrence that fires while an earlier run of its schedule has not finished is enqueued all the
-- same, held as a 'pending' job, and released (pending -> available) once the run before it has finished, so the
-- runs of one schedule never execute at once and each runs in turn (domain.cron.QueuedRuns).
ALTER TABLE cron_jobs DROP CONSTRAINT cron_jobs_overlap_policy_check;
ALTER TABLE cron_jobs ADD CONSTRAINT cron_jobs_overlap_policy_check
    CHECK (overlap_policy IN ('skip', 'allow', 'cancel_previous', 'enqueue'));

-- held: the occurrence's job waits for the run before it (it was enqueued 'pending'); cleared when it is released.
ALTER TABLE cron_runs ADD COLUMN held boolean NOT NULL DEFAULT false;
ALTER TABLE cron_runs ADD CONSTRAINT held_has_job CHECK (NOT held OR job_id IS NOT NULL);
-- The held occurrences by schedule, earliest first: the release pass and the queued count read only these rows,
-- never a schedule's whole history; every other occurrence stays out of the index.
CREATE INDEX cron_runs_held_idx ON cron_runs (cron_name, fire_at) WHERE held;

-- When the workflow's first job began executing: recorded by every ACK and FAIL of a member (the earliest start
-- of its job seen then); GET also looks at the start of jobs still running (WorkflowSql.FIND_TREE_JOBS).
ALTER TABLE workflows ADD COLUMN started_at timestamptz;
