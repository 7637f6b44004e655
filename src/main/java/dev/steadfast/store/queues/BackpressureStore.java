package dev.steadfast.store.queues;

import dev.steadfast.domain.QueueBound;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Queue depth bounds (V14__queue_backpressure.sql) and the depth they are checked against. */
@ApplicationScoped
public class BackpressureStore {

    /** SET_QUEUE_BOUND: an upsert, so a queue can be bounded before its first job; null max_depth unbounds it. */
    static final String SET = """
            INSERT INTO queues (name, created_at, max_depth, warning_threshold) VALUES ($1, $2, $3, $4)
            ON CONFLICT (name) DO UPDATE SET max_depth = $3, warning_threshold = $4""";

    static final String BOUNDED = "SELECT name, max_depth, warning_threshold FROM queues WHERE max_depth IS NOT NULL";

    /** Waiting jobs of one queue: an index-only count over jobs_claim_idx plus the (rare) pending jobs. */
    static final String DEPTH = """
            SELECT count(*) FROM jobs WHERE queue = $1 AND state IN ('available', 'scheduled', 'retryable', 'pending')""";

    private final Pool pool;

    public BackpressureStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> set(String queue, QueueBound bound, Instant now) {
        return pool.preparedQuery(SET).execute(Tuple.of(queue, JobStore.odt(now),
                bound == null ? null : bound.maxDepth(), bound == null ? null : bound.warningThreshold()))
                .replaceWithVoid();
    }

    public Uni<Map<String, QueueBound>> bounded() {
        return pool.query(BOUNDED).execute().map(rows -> {
            Map<String, QueueBound> out = new HashMap<>();
            for (Row r : rows) {
                Double w = r.getDouble("warning_threshold");
                out.put(r.getString("name"), new QueueBound(r.getInteger("max_depth"),
                        w == null ? QueueBound.DEFAULT_WARNING : w));
            }
            return out;
        });
    }

    public Uni<Long> depth(String queue) {
        return pool.preparedQuery(DEPTH).execute(Tuple.of(queue)).map(rows -> rows.iterator().next().getLong(0));
    }
}
