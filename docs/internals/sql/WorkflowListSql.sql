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

-- WorkflowListSql.list(top-level workflows, newest first)
SELECT w.id, w.type, w.name, w.state, w.created_at, w.started_at, w.completed_at, w.cancelled_at,
       w.parent_id, m.total, m.completed, m.failed, m.cancelled
FROM workflows w CROSS JOIN LATERAL (
    SELECT count(*) AS total, count(*) FILTER (WHERE outcome = 'completed') AS completed,
           count(*) FILTER (WHERE outcome = 'failed') AS failed,
           count(*) FILTER (WHERE outcome = 'cancelled') AS cancelled
    FROM workflow_jobs wj WHERE wj.workflow_id = w.id AND wj.role = 'step') m
 WHERE w.parent_id IS NULL ORDER BY w.created_at DESC, w.id DESC LIMIT $1;

-- WorkflowListSql.list(nested ones too, the next page)
SELECT w.id, w.type, w.name, w.state, w.created_at, w.started_at, w.completed_at, w.cancelled_at,
       w.parent_id, m.total, m.completed, m.failed, m.cancelled
FROM workflows w CROSS JOIN LATERAL (
    SELECT count(*) AS total, count(*) FILTER (WHERE outcome = 'completed') AS completed,
           count(*) FILTER (WHERE outcome = 'failed') AS failed,
           count(*) FILTER (WHERE outcome = 'cancelled') AS cancelled
    FROM workflow_jobs wj WHERE wj.workflow_id = w.id AND wj.role = 'step') m
 WHERE (w.created_at, w.id) < ($1, $2) ORDER BY w.created_at DESC, w.id DESC LIMIT $3;

-- WorkflowListSql.list(state, type, name and time range)
SELECT w.id, w.type, w.name, w.state, w.created_at, w.started_at, w.completed_at, w.cancelled_at,
       w.parent_id, m.total, m.completed, m.failed, m.cancelled
FROM workflows w CROSS JOIN LATERAL (
    SELECT count(*) AS total, count(*) FILTER (WHERE outcome = 'completed') AS completed,
           count(*) FILTER (WHERE outcome = 'failed') AS failed,
           count(*) FILTER (WHERE outcome = 'cancelled') AS cancelled
    FROM workflow_jobs wj WHERE wj.workflow_id = w.id AND wj.role = 'step') m
 WHERE w.parent_id IS NULL AND w.state = $1 AND w.type = $2 AND w.name ILIKE $3 AND w.created_at >= $4 AND w.created_at < $5 ORDER BY w.created_at DESC, w.id DESC LIMIT $6;

-- WorkflowListSql.count(top-level workflows)
SELECT count(*) FROM workflows w WHERE w.parent_id IS NULL;

-- WorkflowListSql.count(state, type, name and time range)
SELECT count(*) FROM workflows w WHERE w.parent_id IS NULL AND w.state = $1 AND w.type = $2 AND w.name ILIKE $3 AND w.created_at >= $4 AND w.created_at < $5;
