-- The statements of store WorkflowListSql, rendered by RenderedSqlTest from the code: do not edit by hand.

-- WorkflowListSql.LIST
SELECT w.id, w.type, w.name, w.state, w.created_at, w.started_at, w.completed_at, w.cancelled_at,
       w.parent_id, m.total, m.completed, m.failed, m.cancelled
FROM workflows w CROSS JOIN LATERAL (
    SELECT count(*) AS total, count(*) FILTER (WHERE outcome = 'completed') AS completed,
           count(*) FILTER (WHERE outcome = 'failed') AS failed,
           count(*) FILTER (WHERE outcome = 'cancelled') AS cancelled
    FROM workflow_jobs wj WHERE wj.workflow_id = w.id AND wj.role = 'step') m;

-- WorkflowListSql.COUNT
SELECT count(*) FROM workflows w;
