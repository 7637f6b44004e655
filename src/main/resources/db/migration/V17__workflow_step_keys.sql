-- The client's own step ids when a workflow is created in the HTTP binding's shape (steps with "id" and
-- "depends_on", ojs-http-binding.md 14.1, as the official Java SDK sends it): kept so that GET answers each step
-- with the id and depends_on it was given. Null for workflows created as chain / group / batch.
ALTER TABLE workflow_jobs ADD COLUMN step_key text CHECK (step_key IS NULL OR length(step_key) BETWEEN 1 AND 255);
