package dev.steadfast.store.maintenance;

import dev.steadfast.model.JobRow;
import dev.steadfast.store.FailureWrite;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.SearchIndexes;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/** The periodic tasks' door to PostgreSQL: lease expiry, promotion and pruning, in bounded batches. */
@ApplicationScoped
public class MaintenanceStore {

    private final Pool pool;

    public MaintenanceStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Locks up to {@code limit} jobs due a lease check by {@code now} and after {@code after} (null: any time
     * before; MaintenanceSql.LOCK_EXPIRED_LEASES, which moves an extended lease's check time to its end), lets
     * {@code decide} compute the failed-attempt outcome of each whose lease ran out, and writes them all with one
     * statement, in one transaction (the error appended to each history in SQL, keeping the newest {@code keep}).
     */
    public Uni<Reaped> reapExpiredLeases(Instant now, Instant after, int limit, int keep,
                                         Function<JobRow, FailureWrite> decide) {
        return pool.withTransaction(conn -> conn.preparedQuery(MaintenanceSql.LOCK_EXPIRED_LEASES)
                .execute(Tuple.of(JobStore.odt(now), limit, since(after)))
                .flatMap(rows -> {
                    List<FailureWrite> writes = new ArrayList<>(rows.rowCount());
                    for (Row r : rows) {
                        if (r.getBoolean("lease_ran_out")) {
                            writes.add(decide.apply(JobRows.from(r)));
                        }
                    }
                    int locked = rows.rowCount();
                    return writes.isEmpty() ? Uni.createFrom().item(new Reaped(List.of(), locked))
                            : JobStore.recordFailures(conn, writes, keep, null, true).map(f -> new Reaped(f, locked));
                }));
    }

    /** A reap's batch: the jobs whose attempt it failed, and how many active jobs it locked (those and the rechecked). */
    public record Reaped(List<JobRow> failed, int locked) {
    }

    /**
     * Locks up to {@code limit} jobs whose expires_at passed by {@code now} before they were started, lets
     * {@code reason} write each one's error entry (JSON), and discards them all in one statement; returns them.
     */
    public Uni<List<JobRow>> discardExpired(Instant now, int limit, int keep, Function<JobRow, String> reason) {
        return discard(MaintenanceSql.LOCK_EXPIRED_JOBS, Tuple.of(JobStore.odt(now), limit), now, keep, reason);
    }

    /**
     * Discards job {@code id} as {@link #discardExpired} does, when its expires_at passed by {@code now} before it
     * was started; returns it, or nothing when it was not such a job (any more).
     */
    public Uni<List<JobRow>> discardExpired(UUID id, Instant now, int keep, Function<JobRow, String> reason) {
        return discard(MaintenanceSql.LOCK_EXPIRED_JOB, Tuple.of(JobStore.odt(now), 1, id), now, keep, reason);
    }

    private Uni<List<JobRow>> discard(String lock, Tuple params, Instant now, int keep, Function<JobRow, String> reason) {
        return pool.withTransaction(conn -> conn.preparedQuery(lock)
                .execute(params)
                .flatMap(rows -> {
                    List<JobRow> expired = JobStore.rowsOf(rows);
                    if (expired.isEmpty()) {
                        return Uni.createFrom().item(List.<JobRow>of());
                    }
                    UUID[] ids = new UUID[expired.size()];
                    String[] entries = new String[expired.size()];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = expired.get(i).id();
                        entries[i] = reason.apply(expired.get(i));
                    }
                    return conn.preparedQuery(MaintenanceSql.DISCARD_EXPIRED)
                            .execute(Tuple.of(ids, entries, JobStore.odt(now), keep)).map(JobStore::rowsOf);
                }));
    }

    /** A sweep's lower bound (domain.SweepFloor): null, a sweep from the head, reads from the epoch. */
    private static OffsetDateTime since(Instant after) {
        return JobStore.odt(after == null ? Instant.EPOCH : after);
    }

    /** Makes scheduled/retryable jobs due by {@code now} and after {@code after} (null: any time before) available. */
    public Uni<List<Promoted>> promoteDue(Instant now, Instant after, int limit) {
        Tuple t = Tuple.of(JobStore.odt(now), limit, since(after));
        return pool.preparedQuery(MaintenanceSql.PROMOTE_DUE).execute(t).map(rows -> {
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

    /**
     * Creates the history partitions for the UTC days from {@code from} to {@code days} days later; returns how many.
     * Creating a partition locks its parent for a moment, under the same lock timeout as dropping one.
     */
    public Uni<Integer> preparePartitions(Instant from, int days) {
        LocalDate day = LocalDate.ofInstant(from, ZoneOffset.UTC);
        return pool.withTransaction(conn -> conn.query(MaintenanceSql.PARTITION_LOCK_TIMEOUT).execute()
                        .flatMap(x -> conn.preparedQuery(MaintenanceSql.PREPARE_PARTITIONS).execute(Tuple.of(day, days)))
                        .map(rows -> rows.iterator().next().getLong(0).intValue()))
                .onFailure(MaintenanceStore::lockTimedOut).recoverWithItem(0);
    }

    /** A lock that could not be had within PARTITION_LOCK_TIMEOUT: the next run tries again. */
    private static boolean lockTimedOut(Throwable e) {
        return e instanceof PgException p && "55P03".equals(p.getSqlState());
    }

    /**
     * Drops the history's day partitions whose whole day ended by {@code before}, each in its own short transaction
     * (see MaintenanceSql.PARTITION_LOCK_TIMEOUT); returns how many jobs they held. A partition whose lock could not
     * be had is left for the next run.
     */
    public Uni<Integer> dropPartitionsBefore(Instant before) {
        LocalDate last = LocalDate.ofInstant(before, ZoneOffset.UTC);
        return pool.query(MaintenanceSql.LIST_PARTITIONS).execute().flatMap(rows -> {
            List<String> old = new ArrayList<>();
            for (Row r : rows) {
                String name = r.getString(0);
                LocalDate day = LocalDate.parse(name.substring(name.length() - 8),
                        DateTimeFormatter.BASIC_ISO_DATE);
                if (!day.plusDays(1).isAfter(last)) {
                    old.add(name);
                }
            }
            Uni<Integer> total = Uni.createFrom().item(0);
            for (String name : old) {
                total = total.flatMap(n -> dropPartition(name).map(m -> n + m));
            }
            return total;
        });
    }

    private Uni<Integer> dropPartition(String name) {
        String quoted = "\"" + name + "\""; // matched ^job_history_done_[0-9]{8}$: nothing to escape
        return pool.withTransaction(conn -> conn.query(MaintenanceSql.PARTITION_LOCK_TIMEOUT).execute()
                        .flatMap(x -> conn.query(MaintenanceSql.LOCK_PARTITIONS).execute())
                        .flatMap(x -> conn.query(MaintenanceSql.countPartition(quoted)).execute())
                        .flatMap(count -> conn.query(MaintenanceSql.dropPartition(quoted)).execute()
                                .map(x -> count.iterator().next().getLong(0).intValue())))
                // tried again next run, or already dropped by another instance (42P01)
                .onFailure(e -> lockTimedOut(e)
                        || e instanceof PgException p && "42P01".equals(p.getSqlState()))
                .recoverWithItem(0);
    }

    /** The history's leaves and their search indexes (SearchIndexes.LEAVES). */
    public Uni<List<SearchIndexes.Leaf>> searchLeaves() {
        return pool.query(SearchIndexes.LEAVES).execute().map(SearchIndexes::leaves);
    }

    /**
     * Builds {@code leaf}'s search and filter indexes (SearchIndexes.create, one after the other), first dropping a
     * failed build's leftovers under the partition lock timeout (a closed partition: only the console and the pruner
     * touch it), so one that cannot be had waits for the next run. Outside any transaction, one statement at a time:
     * it works through a pooler in transaction mode too. Two instances building the same index at once: the second
     * waits for the first's lock and then finds the index there (IF NOT EXISTS); should PostgreSQL abort one, its
     * leftover is dropped next run.
     */
    public Uni<Void> buildSearchIndex(SearchIndexes.Leaf leaf) {
        Uni<Void> done = !leaf.leftover() ? Uni.createFrom().voidItem()
                : pool.withTransaction(conn -> conn.query(MaintenanceSql.PARTITION_LOCK_TIMEOUT).execute()
                        .flatMap(x -> conn.query(SearchIndexes.drop(leaf)).execute())).replaceWithVoid();
        for (String create : SearchIndexes.create(leaf.name())) {
            done = done.flatMap(x -> pool.query(create).execute()).replaceWithVoid();
        }
        return done;
    }

    /** Deletes up to {@code limit} progress rows whose job no longer exists; returns how many. */
    public Uni<Integer> pruneOrphanProgress(int limit) {
        return pool.preparedQuery(MaintenanceSql.PRUNE_ORPHAN_PROGRESS).execute(Tuple.of(limit))
                .map(rows -> rows.rowCount());
    }

    /** Deletes up to {@code limit} checkpoints of finished or gone jobs (a dead letter's stays); returns how many. */
    public Uni<Integer> pruneFinishedCheckpoints(int limit) {
        return pool.preparedQuery(MaintenanceSql.PRUNE_FINISHED_CHECKPOINTS).execute(Tuple.of(limit))
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
