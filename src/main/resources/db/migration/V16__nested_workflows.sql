-- Nested workflows (ojs-workflows.md 10): a chain step or a group/batch job may itself be a chain, group or batch.
-- The inner workflow is a workflows row of its own with its parent (deleted with it) and the root of its tree;
-- whoever changes any workflow of a tree locks the root row first (one lock order for the whole tree). In its
-- parent, the inner workflow is a member like a job: a workflow_jobs row whose job_id is the inner workflow's id
-- and whose child flag says so; its state stands in for a job state (WorkflowState.asMemberState).
ALTER TABLE workflows ADD COLUMN parent_id uuid REFERENCES workflows (id) ON DELETE CASCADE;
ALTER TABLE workflows ADD COLUMN root_id uuid;
ALTER TABLE workflows ADD CONSTRAINT nested_has_root CHECK ((parent_id IS NULL) = (root_id IS NULL));
CREATE INDEX workflows_parent_idx ON workflows (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX workflows_root_idx ON workflows (root_id) WHERE root_id IS NOT NULL;

ALTER TABLE workflow_jobs ADD COLUMN child boolean NOT NULL DEFAULT false;
