package dev.steadfast.store.audit;

/**
 * The named statements of the audit log (V27). Rows are only ever inserted, read newest first in keyset pages of
 * id, and deleted by the retention in bounded batches; the table's trigger refuses every UPDATE.
 */
final class AuditSql {

    private AuditSql() {
    }

    static final String COLUMNS = "id, at, actor, via, action, scope::text AS scope, jobs, client, outcome, status";

    /** One entry; {@code at} is bound by the caller from the server's clock. */
    static final String APPEND = "INSERT INTO audit_log (at, actor, via, action, scope, jobs, client, outcome, status)"
            + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id";

    private static final String PAGE_REST = " AND ($3::timestamptz IS NULL OR at >= $3)"
            + " AND ($4::timestamptz IS NULL OR at < $4) AND id < $5 ORDER BY id DESC LIMIT $6";

    /**
     * A page, newest first, strictly before the id $5, optionally within [$3, $4) (actor $1 and action $2 unbound):
     * walks the primary key backwards. Measured at 100,000 entries (docs/performance/2026-11-26-audit-log.md).
     */
    static final String PAGE = "SELECT " + COLUMNS + " FROM audit_log WHERE $1::text IS NULL AND $2::text IS NULL"
            + PAGE_REST;

    /**
     * The same for one actor $1 (and the action $2 when bound): the (actor, id) index backwards, so a rare actor does
     * not read the whole table (a statement with an optional actor gets a generic plan that cannot use the index).
     */
    static final String PAGE_BY_ACTOR = "SELECT " + COLUMNS + " FROM audit_log WHERE actor = $1"
            + " AND ($2::text IS NULL OR action = $2)" + PAGE_REST;

    /** The same for one action $2 (no actor): the (action, id) index backwards. */
    static final String PAGE_BY_ACTION = "SELECT " + COLUMNS + " FROM audit_log WHERE $1::text IS NULL AND action = $2"
            + PAGE_REST;

    /** Retention: a batch of the oldest entries written before $1 (SKIP LOCKED: several instances at once). */
    static final String PRUNE_BEFORE = "WITH batch AS MATERIALIZED (SELECT id FROM audit_log WHERE at < $1"
            + " ORDER BY at, id LIMIT $2 FOR UPDATE SKIP LOCKED) DELETE FROM audit_log WHERE id IN (SELECT id FROM batch)";
}
