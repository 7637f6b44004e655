-- GET /ojs/v1/workflows and the console's workflows list page newest first by (created_at, id), keyset pages
-- (WorkflowListSql.LIST): without this index every page, the first included, reads and sorts every workflow.
CREATE INDEX workflows_created_idx ON workflows (created_at, id);
