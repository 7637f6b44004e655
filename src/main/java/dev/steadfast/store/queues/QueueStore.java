package dev.steadfast.store.queues;

import dev.steadfast.model.QueueRow;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/**
 * The queues table's pause switch. Pausing is all FETCH needs: {@code JobSql.claimQueues} skips a queue whose row says
 * paused, inside the claim statement itself, so a pause takes effect for the very next fetch on every instance.
 * Enqueueing is not affected (jobs accumulate as available, ojs-admin-api.md 6.3).
 */
@ApplicationScoped
public class QueueStore {

    private static final String RETURNING = " RETURNING name, paused, paused_at, created_at";

    /**
     * PAUSE_QUEUE: an upsert, so a queue can be paused before its first job arrives; pausing a paused queue keeps
     * the instant of the first pause.
     */
    static final String PAUSE = """
            INSERT INTO queues (name, paused, paused_at, created_at) VALUES ($1, true, $2, $2)
            ON CONFLICT (name) DO UPDATE
            SET paused = true, paused_at = CASE WHEN queues.paused THEN queues.paused_at ELSE $2 END""" + RETURNING;

    /** RESUME_QUEUE: no row means the server has never heard of the queue (the service answers 404). */
    static final String RESUME = "UPDATE queues SET paused = false, paused_at = NULL WHERE name = $1" + RETURNING;

    static final String FIND = "SELECT name, paused, paused_at, created_at FROM queues WHERE name = $1";

    private final Pool pool;

    public QueueStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<QueueRow> pause(String name, Instant now) {
        return pool.preparedQuery(PAUSE).execute(Tuple.of(name, JobStore.odt(now)))
                .map(rows -> from(rows.iterator().next()));
    }

    /** Resumes the queue; empty when there is no such queue. */
    public Uni<Optional<QueueRow>> resume(String name) {
        return pool.preparedQuery(RESUME).execute(Tuple.of(name)).map(QueueStore::first);
    }

    public Uni<Optional<QueueRow>> find(String name) {
        return pool.preparedQuery(FIND).execute(Tuple.of(name)).map(QueueStore::first);
    }

    private static Optional<QueueRow> first(RowSet<Row> rows) {
        return rows.rowCount() == 0 ? Optional.empty() : Optional.of(from(rows.iterator().next()));
    }

    static QueueRow from(Row r) {
        return new QueueRow(r.getString("name"), r.getBoolean("paused"), JobRows.instant(r, "paused_at"),
                JobRows.instant(r, "created_at"));
    }
}
