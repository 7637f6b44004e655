package dev.steadfast.store.workflows;

import dev.steadfast.domain.workflow.WorkflowState;
import dev.steadfast.domain.workflow.WorkflowType;
import dev.steadfast.model.WorkflowFilter;
import dev.steadfast.store.JobRows;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Lists workflows for {@code GET /ojs/v1/workflows} and the console ({@link WorkflowListSql}): a filter, newest
 * first, keyset pages after a (created_at, id) position, and the count of all that match. Reads only; no lock.
 */
@ApplicationScoped
public class WorkflowListStore {

    /** One workflow of a listing, with its own steps counted by recorded outcome. */
    public record Listed(UUID id, WorkflowType type, String name, WorkflowState state, Instant createdAt,
                         Instant startedAt, Instant completedAt, Instant cancelledAt, UUID parentId, int stepsTotal,
                         int stepsCompleted, int stepsFailed, int stepsCancelled) {
    }

    private final Pool pool;

    public WorkflowListStore(Pool pool) {
        this.pool = pool;
    }

    /** Up to {@code limit} workflows matching {@code f}, newest first, after ({@code afterAt}, {@code afterId}) when given. */
    public Uni<List<Listed>> list(WorkflowFilter f, Instant afterAt, UUID afterId, int limit) {
        List<Object> args = new ArrayList<>();
        String sql = WorkflowListSql.list(f, afterAt, afterId, limit, args);
        return pool.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
            List<Listed> out = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                out.add(new Listed(r.getUUID("id"), WorkflowType.fromWire(r.getString("type")).orElseThrow(),
                        r.getString("name"), WorkflowState.fromWire(r.getString("state")).orElseThrow(),
                        JobRows.instant(r, "created_at"), JobRows.instant(r, "started_at"),
                        JobRows.instant(r, "completed_at"), JobRows.instant(r, "cancelled_at"), r.getUUID("parent_id"),
                        r.getLong("total").intValue(), r.getLong("completed").intValue(),
                        r.getLong("failed").intValue(), r.getLong("cancelled").intValue()));
            }
            return out;
        });
    }

    /** How many workflows match {@code f}. */
    public Uni<Long> count(WorkflowFilter f) {
        List<Object> args = new ArrayList<>();
        String sql = WorkflowListSql.count(f, args);
        return pool.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> rows.iterator().next().getLong(0));
    }
}
