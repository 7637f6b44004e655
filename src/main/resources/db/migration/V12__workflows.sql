-- Workflows (ojs-workflows.md): chain, group and batch. A workflow is one row of workflows, locked FOR UPDATE by
-- whoever advances it; its members (steps, group/batch jobs and batch callbacks) are ordinary jobs, all inserted
-- when the workflow is created, the ones that must wait in state 'pending'. workflow_jobs says which job plays
-- which part and, once the workflow has accounted for a finished job, its outcome (written exactly once, under
-- the workflow's lock: what makes advancing idempotent).
CREATE TABLE workflows (
    id           uuid        PRIMARY KEY,
    type         text        NOT NULL CHECK (type IN ('chain', 'group', 'batch')),
    name         text        CHECK (name IS NULL OR length(name) <= 255),
    state        text        NOT NULL CHECK (state IN ('pending', 'running', 'completed', 'failed', 'cancelled')),
    created_at   timestamptz NOT NULL,
    completed_at timestamptz,
    cancelled_at timestamptz,
    CHECK ((state IN ('completed', 'failed')) = (completed_at IS NOT NULL)),
    CHECK ((state = 'cancelled') = (cancelled_at IS NOT NULL))
);

CREATE TABLE workflow_jobs (
    job_id      uuid    PRIMARY KEY,
    workflow_id uuid    NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    role        text    NOT NULL CHECK (role IN ('step', 'on_complete', 'on_success', 'on_failure')),
    position    integer NOT NULL CHECK (position >= 0),
    outcome     text    CHECK (outcome IN ('completed', 'failed', 'cancelled')),
    UNIQUE (workflow_id, role, position)
);

-- The advancer's search for finished jobs the workflow has not yet accounted for.
CREATE INDEX workflow_jobs_open_idx ON workflow_jobs (job_id) WHERE outcome IS NULL;

-- Null for every job outside a workflow. ACK and FAIL's batched statements take only rows where it is null (a
-- test on the row they already read); a workflow step's ACK/FAIL goes through the workflow's transaction instead.
-- No index and no foreign key: neither PUSH, the claim nor the pruner pays anything for it.
ALTER TABLE jobs ADD COLUMN workflow_id uuid;
