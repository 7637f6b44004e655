package dev.steadfast.store.workflows;

import dev.steadfast.model.WorkflowFilter;
import dev.steadfast.store.JobStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The workflows listing's statement, assembled from the filters a request names (a filter left out is not in the
 * SQL at all, so the planner sees only real conditions). Newest first by (created_at, id) through
 * {@code workflows_created_idx} (V26), read backwards; the keyset condition is a row comparison the index serves,
 * so a page deep in the list costs what the first one does. The name filter and the others are checked on the
 * rows the index walks: a rare name costs a longer walk, bounded by the workflows kept (retention prunes them).
 */
final class WorkflowListSql {

    private WorkflowListSql() {
    }

    /**
     * One page; the counters are this workflow's own steps (a nested workflow counting as one) by the outcome the
     * workflow has recorded, read through the unique (workflow_id, role, position) index.
     */
    static final String LIST = """
            SELECT w.id, w.type, w.name, w.state, w.created_at, w.started_at, w.completed_at, w.cancelled_at,
                   w.parent_id, m.total, m.completed, m.failed, m.cancelled
            FROM workflows w CROSS JOIN LATERAL (
                SELECT count(*) AS total, count(*) FILTER (WHERE outcome = 'completed') AS completed,
                       count(*) FILTER (WHERE outcome = 'failed') AS failed,
                       count(*) FILTER (WHERE outcome = 'cancelled') AS cancelled
                FROM workflow_jobs wj WHERE wj.workflow_id = w.id AND wj.role = 'step') m
            """;

    static final String COUNT = "SELECT count(*) FROM workflows w";

    static final String ORDER = " ORDER BY w.created_at DESC, w.id DESC LIMIT ";

    /**
     * A page of the listing: up to {@code limit} workflows matching {@code f}, after ({@code afterAt},
     * {@code afterId}) when given; its parameters into {@code args} (RenderedSqlTest renders its shapes).
     */
    static String list(WorkflowFilter f, Instant afterAt, UUID afterId, int limit, List<Object> args) {
        String sql = LIST + where(f, afterAt != null, args) + ORDER + "$" + (args.size() + (afterAt != null ? 3 : 1));
        if (afterAt != null) {
            args.add(JobStore.odt(afterAt));
            args.add(afterId);
        }
        args.add(limit);
        return sql;
    }

    /** How many workflows match {@code f}; its parameters into {@code args} (RenderedSqlTest renders its shapes). */
    static String count(WorkflowFilter f, List<Object> args) {
        return COUNT + where(f, false, args);
    }

    /** The WHERE clause for {@code f} (and a cursor when {@code keyset}), its parameters appended to {@code args}. */
    static String where(WorkflowFilter f, boolean keyset, List<Object> args) {
        List<String> c = new ArrayList<>();
        if (!f.nested()) {
            c.add("w.parent_id IS NULL");
        }
        if (f.state() != null) {
            args.add(f.state().wire());
            c.add("w.state = $" + args.size());
        }
        if (f.type() != null) {
            args.add(f.type().wire());
            c.add("w.type = $" + args.size());
        }
        if (f.name() != null) {
            args.add("%" + f.name().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
            c.add("w.name ILIKE $" + args.size());
        }
        if (f.createdAfter() != null) {
            args.add(JobStore.odt(f.createdAfter()));
            c.add("w.created_at >= $" + args.size());
        }
        if (f.createdBefore() != null) {
            args.add(JobStore.odt(f.createdBefore()));
            c.add("w.created_at < $" + args.size());
        }
        if (keyset) {
            c.add("(w.created_at, w.id) < ($" + (args.size() + 1) + ", $" + (args.size() + 2) + ")");
        }
        return c.isEmpty() ? "" : " WHERE " + String.join(" AND ", c);
    }
}
