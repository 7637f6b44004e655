package dev.steadfast.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The periodic tasks' door to PostgreSQL: lease expiry, promotion and pruning, in bounded batches. */
@ApplicationScoped
public class MaintenanceStore {

    private final Pool pool;

    public MaintenanceStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Locks up to {@code limit} jobs whose lease expired by {@code now}, lets {@code decide} compute each one's
     * failed-attempt outcome, and writes them all with one statement, in one transaction (the error appended to
     * each history in SQL, keeping the newest {@code keep}). Returns the written rows.
     */
    public Uni<List<JobRow>> reapExpiredLeases(Instant now, int limit, int keep, Function<JobRow, FailureWrite> decide) {
        return pool.withTransaction(conn -> conn.preparedQuery(MaintenanceSql.LOCK_EXPIRED_LEASES)
                .execute(Tuple.of(JobStore.odt(now), limit))
                .flatMap(rows -> {
                    List<FailureWrite> writes = new ArrayList<>(rows.rowCount());
                    for (JobRow j : JobStore.rowsOf(rows)) {
                        writes.add(decide.apply(j));
                    }
                    return writes.isEmpty() ? Uni.createFrom().item(List.<JobRow>of())
                            : JobStore.recordFailures(conn, writes, keep, null, true);
                }));
    }

    /**
     * Locks up to {@code limit} jobs whose expires_at passed by {@code now} before they were started, lets
     * {@code reason} write each one's error entry (JSON), and discards them all in one statement; returns them.
     */
    public Uni<List<JobRow>> discardExpired(Instant now, int limit, int keep, Function<JobRow, String> reason) {
        return pool.withTransaction(conn -> conn.preparedQuery(MaintenanceSql.LOCK_EXPIRED_JOBS)
                .execute(Tuple.of(JobStore.odt(now), limit))
                .flatMap(rows -> {
                    List<JobRow> expired = JobStore.rowsOf(rows);
                    if (expired.isEmpty()) {
                        return Uni.createFrom().item(List.<JobRow>of());
                    }
                    java.util.UUID[] ids = new java.util.UUID[expired.size()];
                    String[] entries = new String[expired.size()];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = expired.get(i).id();
                        entries[i] = reason.apply(expired.get(i));
                    }
                    return conn.preparedQuery(MaintenanceSql.DISCARD_EXPIRED)
                            .execute(Tuple.of(ids, entries, JobStore.odt(now), keep)).map(JobStore::rowsOf);
                }));
    }

    /** Makes due scheduled/retryable jobs available; returns how many. */
    public Uni<List<Promoted>> promoteDue(Instant now, int limit) {
        return pool.preparedQuery(MaintenanceSql.PROMOTE_DUE).execute(Tuple.of(JobStore.odt(now), limit)).map(rows -> {
            List<Promoted> out = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                out.add(new Promoted(r.getUUID("id").toString(), r.getString("type"), r.getString("queue"),
                        r.getInteger("priority")));
            }
            return out;
        });
    }

    /** A job the promoter made available. */
    public record Promoted(String id, String type, String queue, int priority) {
    }

    public Uni<Integer> pruneFinished(Instant before, int limit) {
        return pool.preparedQuery(MaintenanceSql.PRUNE_FINISHED).execute(Tuple.of(JobStore.odt(before), limit))
                .map(rows -> rows.rowCount());
    }

    public Uni<Integer> pruneDeadLetters(Instant before, int limit) {
        return pool.preparedQuery(MaintenanceSql.PRUNE_DEAD_LETTERS).execute(Tuple.of(JobStore.odt(before), limit))
                .map(rows -> rows.rowCount());
    }

    public Uni<Integer> forgetWorkers(Instant before) {
        return pool.preparedQuery(MaintenanceSql.FORGET_WORKERS).execute(Tuple.of(JobStore.odt(before)))
                .map(rows -> rows.rowCount());
    }
}
