package dev.steadfast.store.audit;

import dev.steadfast.model.AuditFilter;
import dev.steadfast.model.AuditRow;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The audit log (V27) on the reactive SQL client: append an entry, read a page newest first, and prune past
 * retention. There is no update: the table refuses one (its trigger), and nothing here would send one.
 */
@ApplicationScoped
public class AuditStore {

    private final Pool pool;

    public AuditStore(Pool pool) {
        this.pool = pool;
    }


    /** Appends one entry; answers its id. */
    public Uni<Long> append(Instant at, String actor, String via, String action, Map<String, Object> scope, Long jobs,
                            String client, String outcome, int status) {
        Tuple t = Tuple.tuple().addValue(JobStore.odt(at)).addValue(actor).addValue(via).addValue(action)
                .addValue(new JsonObject(scope)).addValue(jobs).addValue(client).addValue(outcome)
                .addValue(status);
        return pool.preparedQuery(AuditSql.APPEND).execute(t).map(rows -> rows.iterator().next().getLong("id"));
    }

    /** Up to {@code limit} entries matching {@code f}, newest first, before the id {@code beforeId} (null: first page). */
    public Uni<List<AuditRow>> page(AuditFilter f, Long beforeId, int limit) {
        Tuple t = Tuple.tuple().addValue(f.actor()).addValue(f.action()).addValue(JobStore.odt(f.since()))
                .addValue(JobStore.odt(f.until())).addValue(beforeId == null ? Long.MAX_VALUE : beforeId)
                .addValue(limit);
        String sql = f.actor() != null ? AuditSql.PAGE_BY_ACTOR : f.action() != null ? AuditSql.PAGE_BY_ACTION : AuditSql.PAGE;
        return pool.preparedQuery(sql).execute(t).map(rows -> {
            List<AuditRow> out = new ArrayList<>(rows.rowCount());
            rows.forEach(r -> out.add(row(r)));
            return out;
        });
    }

    /** Deletes a batch of entries written before {@code before}; answers how many (loop until short). */
    public Uni<Integer> pruneBefore(Instant before, int limit) {
        return pool.preparedQuery(AuditSql.PRUNE_BEFORE).execute(Tuple.of(JobStore.odt(before), limit))
                .map(RowSet::rowCount);
    }

    private static AuditRow row(Row r) {
        return new AuditRow(r.getLong("id"), JobRows.instant(r, "at"), r.getString("actor"), r.getString("via"),
                r.getString("action"), r.getString("scope"), r.getLong("jobs"), r.getString("client"),
                r.getString("outcome"), r.getInteger("status"));
    }
}
