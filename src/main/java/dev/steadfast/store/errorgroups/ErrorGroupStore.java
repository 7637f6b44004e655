package dev.steadfast.store.errorgroups;

import dev.steadfast.store.HistorySql;
import dev.steadfast.store.JobQueryStore;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.JobSummary;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Error groups (V25) on the reactive SQL client: the groups and their hourly counts, a group's jobs in keyset
 * pages, how many of them each action would touch, and the actions on a whole group in bounded batches (the
 * caller loops until one comes back short). The counting itself happens in the FAIL statement
 * ({@code JobSql.RECORD_FAILURES}); nothing here is on the hot path.
 *
 * <p>A state guard is bound by the caller from {@code JobStateMachine.sourceNames} and repeated in the outer
 * statement, so a job that moved between the batch's choice and its write is left alone.
 */
@ApplicationScoped
public class ErrorGroupStore {

    /** Sorts after every id: the "before" of a first page. */
    static final UUID LAST_ID = new UUID(-1L, -1L);

    private final Pool pool;

    public ErrorGroupStore(Pool pool) {
        this.pool = pool;
    }

    /** Up to {@code limit} groups, the most recently failing first, after the (lastSeen, id) cursor when given. */
    public Uni<List<ErrorGroupRow>> list(int limit, Instant afterSeen, Long afterId) {
        return pool.preparedQuery(ErrorGroupSql.LIST_GROUPS)
                .execute(Tuple.of(limit, JobStore.odt(afterSeen), afterId))
                .map(rows -> {
                    List<ErrorGroupRow> out = new ArrayList<>(rows.rowCount());
                    rows.forEach(r -> out.add(group(r)));
                    return out;
                });
    }

    public Uni<Optional<ErrorGroupRow>> find(long id) {
        return pool.preparedQuery(ErrorGroupSql.FIND_GROUP).execute(Tuple.of(id))
                .map(rows -> rows.rowCount() == 0 ? Optional.empty() : Optional.of(group(rows.iterator().next())));
    }

    /** The failures per UTC hour from {@code since} on, per group: group id to (hour to failures). */
    public Uni<Map<Long, Map<Instant, Long>>> hours(List<Long> groups, Instant since) {
        if (groups.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery(ErrorGroupSql.HOURS)
                .execute(Tuple.of(groups.toArray(Long[]::new), JobStore.odt(since)))
                .map(rows -> {
                    Map<Long, Map<Instant, Long>> out = new HashMap<>();
                    for (Row r : rows) {
                        out.computeIfAbsent(r.getLong("group_id"), k -> new HashMap<>())
                                .put(JobRows.instant(r, "hour"), r.getLong("failures"));
                    }
                    return out;
                });
    }

    /** Up to {@code limit} of the group's jobs, newest id first, before {@code beforeId} (null: the first page). */
    public Uni<List<JobSummary>> jobs(long group, UUID beforeId, int limit) {
        return pool.preparedQuery(ErrorGroupSql.GROUP_JOBS)
                .execute(Tuple.of(group, beforeId == null ? LAST_ID : beforeId, limit))
                .map(rows -> {
                    List<JobSummary> out = new ArrayList<>(rows.rowCount());
                    rows.forEach(r -> out.add(JobQueryStore.summary(r)));
                    return out;
                });
    }

    /** How many of the group's jobs are in each state; dead letters count under {@code "dead_letter"}. */
    public Uni<Map<String, Long>> countByState(long group) {
        return pool.preparedQuery(ErrorGroupSql.COUNT_BY_STATE).execute(Tuple.of(group)).map(rows -> {
            Map<String, Long> out = new HashMap<>();
            for (Row r : rows) {
                String key = Boolean.TRUE.equals(r.getBoolean("dead_letter")) ? "dead_letter" : r.getString("state");
                out.merge(key, r.getLong("n"), Long::sum);
            }
            return out;
        });
    }

    /** Makes a batch of the group's live jobs in {@code fromStates} available at {@code now}; answers how many. */
    public Uni<Integer> retryNowBatch(long group, String[] fromStates, Instant now, int limit) {
        return pool.preparedQuery(ErrorGroupSql.RETRY_NOW_BATCH)
                .execute(Tuple.of(group, fromStates, JobStore.odt(now), limit)).map(RowSet::rowCount);
    }

    /**
     * Starts a new run ({@link HistorySql#START_NEW_RUNS}) of a batch of the group's discarded jobs, dead letters
     * or the others as {@code deadLetter} says; answers how many were chosen (call again until short), of which
     * those another operator moved meanwhile are skipped.
     */
    public Uni<Integer> newRunsBatch(long group, boolean deadLetter, String[] fromStates, Instant now, int limit) {
        return pool.preparedQuery(ErrorGroupSql.DISCARDED_BATCH).execute(Tuple.of(group, deadLetter, limit))
                .flatMap(rows -> {
                    List<UUID> ids = new ArrayList<>(rows.rowCount());
                    rows.forEach(r -> ids.add(r.getUUID("id")));
                    if (ids.isEmpty()) {
                        return Uni.createFrom().item(0);
                    }
                    return pool.preparedQuery(HistorySql.START_NEW_RUNS)
                            .execute(Tuple.of(ids.toArray(UUID[]::new), fromStates, deadLetter, JobStore.odt(now)))
                            .map(moved -> ids.size());
                });
    }

    /** Discards a batch of the group's live jobs in {@code fromStates}; answers how many. */
    public Uni<Integer> discardBatch(long group, String[] fromStates, Instant now, int limit) {
        return pool.preparedQuery(ErrorGroupSql.DISCARD_BATCH)
                .execute(Tuple.of(group, fromStates, JobStore.odt(now), limit)).map(RowSet::rowCount);
    }

    /** Deletes a batch of the group's discarded jobs (dead letters included) and then of its retryable ones. */
    public Uni<Integer> deleteBatch(long group, int limit) {
        return pool.preparedQuery(ErrorGroupSql.DELETE_DISCARDED_BATCH).execute(Tuple.of(group, limit))
                .flatMap(done -> done.rowCount() >= limit ? Uni.createFrom().item(done.rowCount())
                        : pool.preparedQuery(ErrorGroupSql.DELETE_RETRYABLE_BATCH)
                                .execute(Tuple.of(group, limit - done.rowCount()))
                                .map(live -> done.rowCount() + live.rowCount()));
    }

    /** Forgets the group (its row and hourly counts); a later failure with the same cause starts it again. */
    public Uni<Void> forget(long group) {
        return pool.preparedQuery(ErrorGroupSql.DELETE_GROUP).execute(Tuple.of(group)).replaceWithVoid();
    }

    /** Drops hourly counts older than {@code before}, a batch at a time; answers how many. */
    public Uni<Integer> pruneHours(Instant before, int limit) {
        return pool.preparedQuery(ErrorGroupSql.PRUNE_HOURS).execute(Tuple.of(JobStore.odt(before), limit))
                .map(RowSet::rowCount);
    }

    /** Forgets groups last seen before {@code before} that no job carries any more; answers how many. */
    public Uni<Integer> pruneGroups(Instant before, int limit) {
        return pool.preparedQuery(ErrorGroupSql.PRUNE_GROUPS).execute(Tuple.of(JobStore.odt(before), limit))
                .map(rows -> rows.iterator().next().getLong("n").intValue());
    }

    private static ErrorGroupRow group(Row r) {
        return new ErrorGroupRow(r.getLong("id"), r.getString("error_type"), r.getString("message"),
                r.getLong("failures"), JobRows.instant(r, "first_seen"), JobRows.instant(r, "last_seen"),
                Arrays.asList(r.getArrayOfStrings("queues")), Arrays.asList(r.getArrayOfStrings("types")));
    }
}
