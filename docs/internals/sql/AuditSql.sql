-- The statements of store AuditSql, rendered by RenderedSqlTest from the code: do not edit by hand.

-- AuditSql.APPEND
INSERT INTO audit_log (at, actor, via, action, scope, jobs, client, outcome, status) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id;

-- AuditSql.PAGE
SELECT id, at, actor, via, action, scope::text AS scope, jobs, client, outcome, status FROM audit_log WHERE $1::text IS NULL AND $2::text IS NULL AND ($3::timestamptz IS NULL OR at >= $3) AND ($4::timestamptz IS NULL OR at < $4) AND id < $5 ORDER BY id DESC LIMIT $6;

-- AuditSql.PAGE_BY_ACTOR
SELECT id, at, actor, via, action, scope::text AS scope, jobs, client, outcome, status FROM audit_log WHERE actor = $1 AND ($2::text IS NULL OR action = $2) AND ($3::timestamptz IS NULL OR at >= $3) AND ($4::timestamptz IS NULL OR at < $4) AND id < $5 ORDER BY id DESC LIMIT $6;

-- AuditSql.PAGE_BY_ACTION
SELECT id, at, actor, via, action, scope::text AS scope, jobs, client, outcome, status FROM audit_log WHERE $1::text IS NULL AND action = $2 AND ($3::timestamptz IS NULL OR at >= $3) AND ($4::timestamptz IS NULL OR at < $4) AND id < $5 ORDER BY id DESC LIMIT $6;

-- AuditSql.PRUNE_BEFORE
WITH batch AS MATERIALIZED (SELECT id FROM audit_log WHERE at < $1 ORDER BY at, id LIMIT $2 FOR UPDATE SKIP LOCKED) DELETE FROM audit_log WHERE id IN (SELECT id FROM batch);
