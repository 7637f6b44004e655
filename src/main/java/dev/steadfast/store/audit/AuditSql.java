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

    /**
     * A page, newest first, strictly before the id $5, each filter applied only when bound: actor $1, action $2
     * (exact), at in [$3, $4). Walks the primary key backwards (or the actor/action index, which has id second);
     * measured at 100,000 rows in docs/performance (the console's /admin/audit).
     */
    static final String PAGE = "SELECT " + COLUMNS + " FROM audit_log"
            + " WHERE ($1::text IS NULL OR actor = $1) AND ($2::text IS NULL OR action = $2)"
            + " AND ($3::timestamptz IS NULL OR at >= $3) AND ($4::timestamptz IS NULL OR at < $4)"
            + " AND id < $5 ORDER BY id DESC LIMIT $6";

    /** Retention: a batch of the oldest entries written before $1 (SKIP LOCKED: several instances at once). */
    static final String PRUNE_BEFORE = "DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < $1"
            + " ORDER BY at, id LIMIT $2 FOR UPDATE SKIP LOCKED)";
}
