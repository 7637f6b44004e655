-- A waiting member's delay (options.delay / delay_ms of a chain step after the first or a batch callback): it
-- counts from the moment the member is enqueued (WorkflowSql.ACTIVATE), so it is kept apart from the job's
-- scheduled_at, which is absolute. Null for no delay and for members enqueued with the workflow.
ALTER TABLE workflow_jobs ADD COLUMN delay_ms bigint CHECK (delay_ms IS NULL OR delay_ms > 0);

-- The pruner's search for finished workflows past retention (MaintenanceSql.PRUNE_WORKFLOWS), oldest first.
CREATE INDEX workflows_finished_idx ON workflows ((coalesce(completed_at, cancelled_at)))
    WHERE state IN ('completed', 'failed', 'cancelled');
