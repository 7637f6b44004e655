package dev.steadfast.store.tenants;

import dev.steadfast.model.Dispatch;
import dev.steadfast.model.PoolRow;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Worker pools (scheduling_pools, V23) and the dispatch counts behind GET /ojs/v1/admin/scheduling/stats
 * (ojs-fair-scheduling.md 10): jobs started since an instant, by queue and tenant, with their wait from becoming
 * available to starting. Counted from the jobs themselves (still active, or finished since then), so no write is
 * added to the claim; a job started and since failed back to retryable is not counted.
 */
@ApplicationScoped
public class SchedulingStore {

    /** Dispatches since $1 by queue and tenant (jobs_lease_check_idx, partial on active jobs, on the live table; the finished index in history). */
    static final String DISPATCHES = """
            WITH d AS (
                SELECT queue, tenant_id, started_at, enqueued_at FROM jobs WHERE state = 'active' AND started_at >= $1
                UNION ALL
                SELECT queue, tenant_id, started_at, enqueued_at FROM job_history
                WHERE finished_at >= $1 AND started_at >= $1)
            SELECT queue, tenant_id, count(*) AS n,
                   coalesce(avg(extract(epoch FROM started_at - enqueued_at) * 1000), 0)::float8 AS wait_ms
            FROM d GROUP BY queue, tenant_id ORDER BY queue, tenant_id""";

    static final String ACTIVE = "SELECT queue, count(*) AS n FROM jobs WHERE state = 'active' GROUP BY queue";

    static final String LIST_POOLS = """
            SELECT name, strategy, queues, weights::text AS weights, concurrency, created_at, updated_at
            FROM scheduling_pools ORDER BY name""";

    static final String FIND_POOL = """
            SELECT name, strategy, queues, weights::text AS weights, concurrency, created_at, updated_at
            FROM scheduling_pools WHERE name = $1""";

    static final String UPSERT_POOL = """
            INSERT INTO scheduling_pools (name, strategy, queues, weights, concurrency, created_at, updated_at)
            VALUES ($1, $2, $3, $4::text::jsonb, $5, $6, $6)
            ON CONFLICT (name) DO UPDATE SET strategy = $2, queues = $3, weights = $4::text::jsonb, concurrency = $5,
                updated_at = $6
            RETURNING name, strategy, queues, weights::text AS weights, concurrency, created_at, updated_at""";

    static final String DELETE_POOL = "DELETE FROM scheduling_pools WHERE name = $1";

    public record Active(String queue, long count) {
    }


    private final Pool pool;

    public SchedulingStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<Dispatch>> dispatches(Instant since) {
        return pool.preparedQuery(DISPATCHES).execute(Tuple.of(JobStore.odt(since))).map(rows -> {
            List<Dispatch> out = new ArrayList<>();
            rows.forEach(r -> out.add(new Dispatch(r.getString("queue"), r.getString("tenant_id"), r.getLong("n"),
                    r.getDouble("wait_ms"))));
            return out;
        });
    }

    public Uni<List<Active>> active() {
        return pool.query(ACTIVE).execute().map(rows -> {
            List<Active> out = new ArrayList<>();
            rows.forEach(r -> out.add(new Active(r.getString("queue"), r.getLong("n"))));
            return out;
        });
    }

    public Uni<List<PoolRow>> pools() {
        return pool.query(LIST_POOLS).execute().map(rows -> {
            List<PoolRow> out = new ArrayList<>();
            rows.forEach(r -> out.add(poolRow(r)));
            return out;
        });
    }

    public Uni<Optional<PoolRow>> findPool(String name) {
        return pool.preparedQuery(FIND_POOL).execute(Tuple.of(name)).map(rows -> rows.rowCount() == 0
                ? Optional.empty() : Optional.of(poolRow(rows.iterator().next())));
    }

    public Uni<PoolRow> savePool(String name, String strategy, List<String> queues, String weightsJson,
                                 Integer concurrency, Instant now) {
        return pool.preparedQuery(UPSERT_POOL).execute(Tuple.tuple(Arrays.asList(name, strategy,
                queues.toArray(String[]::new), weightsJson, concurrency, JobStore.odt(now))))
                .map(rows -> poolRow(rows.iterator().next()));
    }

    public Uni<Boolean> deletePool(String name) {
        return pool.preparedQuery(DELETE_POOL).execute(Tuple.of(name)).map(rows -> rowsDeleted(rows.rowCount()));
    }

    private static boolean rowsDeleted(int n) {
        return n > 0;
    }

    private static PoolRow poolRow(Row r) {
        return new PoolRow(r.getString("name"), r.getString("strategy"),
                Arrays.asList(r.getArrayOfStrings("queues")), r.getString("weights"), r.getInteger("concurrency"),
                JobRows.instant(r, "created_at"),
                JobRows.instant(r, "updated_at"));
    }
}
