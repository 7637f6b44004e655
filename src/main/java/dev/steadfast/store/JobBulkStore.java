package dev.steadfast.store;

import dev.steadfast.domain.OjsException;
import dev.steadfast.model.BulkScope;
import dev.steadfast.model.JobFilter;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The jobs list's bulk actions (cancel, retry, delete) on a selection of ids or on everything a {@link JobFilter}
 * matches, one bounded batch per call (the caller loops until a batch comes back short), never loading the matching
 * ids into memory. The states each step may touch are bound by the caller from {@code domain.BulkJobAction} (derived
 * from the state machine), so {@code active} is never among them: every batch is chosen {@code FOR UPDATE SKIP
 * LOCKED} with the state guard, which the outer statement repeats, so a job a worker claimed meanwhile (locked, or
 * no longer in those states) is skipped rather than changed under its worker, and the batch never waits on a worker
 * or another operator. Each batch is its own short transaction, with the listing's time limit.
 *
 * <p>Parameters: $1 the states, $2 the batch size, $3 the time or the dead-letter flag where the statement takes
 * one, then the scope's.
 */
@ApplicationScoped
public class JobBulkStore {

    /**
     * A batch of live jobs, never active. A text or args condition reads the live table in order (it has no search
     * index since V31), as it reads today's history partition; the closed days' partitions through their own.
     */
    private static final String LIVE_BATCH = "SELECT id FROM jobs WHERE " + JobQueryStore.WAITING
            + " AND state = ANY($1) %s LIMIT $2 FOR UPDATE SKIP LOCKED";

    /**
     * The batch, taken once. Written inline ({@code WHERE id IN (SELECT ... LIMIT $2 FOR UPDATE SKIP LOCKED)}) the
     * planner may make the batch the inner side of a semi join and run it again for each outer row; a rerun skips
     * the rows this statement has already changed and locks the next ones, so one statement took 7 jobs for a batch
     * of 3 (ConsoleJobsListTest). A materialized CTE is run once.
     */
    private static final String LIVE_BATCH_CTE = "batch AS MATERIALIZED (" + LIVE_BATCH + ")";

    /** A confirmation counts at most this many jobs per table: a count reads every matching row, an action does not. */
    public static final int COUNT_CAP = 10_000;

    /**
     * COUNT_MATCHING: how many jobs the action would touch now, per table, the confirmation's count; each part stops
     * at COUNT_CAP (a common args value matched 90,000 jobs, whose exact count took about a second at a million).
     */
    static final String COUNT_MATCHING = "SELECT (SELECT count(*) FROM (SELECT 1 FROM jobs WHERE " + JobQueryStore.WAITING
            + " AND state = ANY($1) %1$s LIMIT " + COUNT_CAP + ") l) AS live, (SELECT count(*) FROM (SELECT 1 FROM"
            + " job_history WHERE state = ANY($2) %1$s LIMIT " + COUNT_CAP + ") h) AS finished";

    /** CANCEL_BATCH: CANCEL (as JobSql.CANCEL) for a batch of live jobs; they move to the history as cancelled. */
    static final String CANCEL_BATCH = "WITH " + LIVE_BATCH_CTE + ",\n"
            + HistorySql.finish("", "j.id IN (SELECT id FROM batch) AND j.state = ANY($1)",
            "", Map.of("state", "'cancelled'", "cancelled_at", "$3::timestamptz")) + "\nSELECT count(*) AS n FROM ins";

    /** RETRY_NOW_BATCH: RETRY_NOW (as JobEntity.makeAvailable) for a batch of scheduled and retryable live jobs. */
    static final String RETRY_NOW_BATCH = "WITH " + LIVE_BATCH_CTE + " UPDATE jobs SET state = 'available',"
            + " run_at = $3, enqueued_at = $3 WHERE id IN (SELECT id FROM batch) AND state = ANY($1) RETURNING id";

    /**
     * A batch of finished jobs to start a new run of ($3: dead letters or not), not locked: HistorySql.START_NEW_RUNS
     * moves them under the same state guard and skips one another operator moved meanwhile.
     */
    static final String FINISHED_BATCH = "SELECT id FROM job_history WHERE state = ANY($1) AND dead_letter = $3 %s"
            + " LIMIT $2";

    /** DELETE_LIVE_BATCH: a batch of live jobs, never active, gone for good (as OperatorStore.delete). */
    static final String DELETE_LIVE_BATCH = "WITH " + LIVE_BATCH_CTE + " DELETE FROM jobs WHERE id IN (SELECT id FROM"
            + " batch) AND state = ANY($1) RETURNING id";

    /** DELETE_FINISHED_BATCH: a batch of finished jobs gone for good. */
    static final String DELETE_FINISHED_BATCH = "WITH batch AS MATERIALIZED (SELECT id FROM job_history"
            + " WHERE state = ANY($1) %s LIMIT $2 FOR UPDATE SKIP LOCKED) DELETE FROM job_history WHERE id IN"
            + " (SELECT id FROM batch) AND state = ANY($1) RETURNING id";

    private final Pool pool;

    public JobBulkStore(Pool pool) {
        this.pool = pool;
    }


    /** A confirmation's count: the jobs matching, and whether a table's part stopped at {@link #COUNT_CAP}. */
    public record Matching(long jobs, boolean atLeast) {
    }

    /**
     * A count reads at most this many rows of each part without the index of one of its conditions (the live table
     * for a text or args search, today's history for any filter: SearchIndexes), newest first; past them it says "at
     * least" (about 50 ms a part).
     */
    public static final int COUNT_READ_CAP = 5_000;

    /** How many jobs are in {@code live} states (live table) or {@code finished} ones (history) in the scope. */
    public Uni<Matching> count(BulkScope scope, String[] live, String[] finished) {
        if (scope.filter() != null && scope.filter().usesClosedDayIndexes()) {
            return countByPart(scope.filter(), live, finished);
        }
        List<Object> params = new ArrayList<>();
        return run(scope, countMatching(scope, live, finished, params), params).map(rows -> {
            Row r = rows.iterator().next();
            long l = r.getLong("live");
            long f = r.getLong("finished");
            return new Matching(l + f, l >= COUNT_CAP || f >= COUNT_CAP);
        });
    }

    /**
     * {@link #count} for a filter whose conditions read a closed history partition's own indexes (text, args, state,
     * queue, type, tag), part by part: the history partitions with those indexes together up to COUNT_CAP matches, as
     * the plain count does; each partition without them (today's) among its newest {@link #COUNT_READ_CAP} rows in the
     * filter's time range, and the live table the same way for a text or args search (up to COUNT_CAP matches
     * otherwise), "at least" when it has more.
     */
    private Uni<Matching> countByPart(JobFilter f, String[] live, String[] finished) {
        return pool.withTransaction(conn -> settings(conn)
                .flatMap(v -> conn.query(SearchIndexes.LEAVES).execute())
                .flatMap(rows -> {
                    List<Object> params = new ArrayList<>();
                    String sql = countMatchingByPart(f, live, finished, SearchIndexes.leaves(rows), params);
                    return conn.preparedQuery(sql).execute(Tuple.tuple(params));
                })
                .map(rows -> {
                    long n = 0;
                    boolean atLeast = false;
                    for (Row r : rows) {
                        n += r.getLong("n");
                        atLeast |= r.getLong("n") >= COUNT_CAP || r.getLong("read") >= COUNT_READ_CAP;
                    }
                    return new Matching(n, atLeast);
                }))
                .onFailure(JobQueryStore::partitionGone).retry().atMost(1)
                .onFailure(JobQueryStore::timedOut).transform(JobBulkStore::tooSlow);
    }

    /**
     * {@link #count}'s statement for a scope without conditions a closed history partition has its own indexes for:
     * COUNT_MATCHING with the scope's conditions, its parameters into {@code params} (RenderedSqlTest renders its
     * shapes).
     */
    static String countMatching(BulkScope scope, String[] live, String[] finished, List<Object> params) {
        params.add(live);
        params.add(finished);
        return COUNT_MATCHING.formatted(where(scope, params));
    }

    /**
     * {@link #countByPart}'s statement over the history's {@code leaves}, its parameters into {@code params}
     * (RenderedSqlTest renders its shapes).
     */
    static String countMatchingByPart(JobFilter f, String[] live, String[] finished, List<SearchIndexes.Leaf> leaves,
                                      List<Object> params) {
        params.add(live);
        params.add(finished);
        List<String> filters = new ArrayList<>();
        List<String> range = new ArrayList<>();
        List<String> searching = new ArrayList<>();
        JobQueryStore.conditions(f, filters, range, searching, params);
        String narrow = and(filters) + and(range);
        String search = and(searching);
        List<String> parts = new ArrayList<>();
        String waiting = "jobs WHERE " + JobQueryStore.WAITING + " AND state = ANY($1)" + narrow;
        parts.add(f.searchesText() ? newest(waiting, "true" + search)
                : "SELECT count(*) AS n, 0 AS read FROM (SELECT 1 FROM " + waiting + search + " LIMIT "
                        + COUNT_CAP + ") l");
        List<String> indexed = new ArrayList<>();
        for (SearchIndexes.Leaf leaf : leaves) {
            if (leaf.indexed()) {
                indexed.add("SELECT 1 FROM " + leaf.name() + " WHERE state = ANY($2)" + narrow + search);
            } else {
                // its rows in order, every condition but the range applied to them
                parts.add(newest(leaf.name() + " WHERE true" + and(range), "state = ANY($2)" + and(filters) + search));
            }
        }
        if (!indexed.isEmpty()) {
            // one cap over all of them, as the plain count's over the whole history
            parts.add("SELECT count(*) AS n, 0 AS read FROM (" + String.join(" UNION ALL ", indexed)
                    + " LIMIT " + COUNT_CAP + ") x");
        }
        return String.join(" UNION ALL ", parts);
    }

    private static String and(List<String> conditions) {
        return conditions.stream().map(w -> " AND " + w).reduce("", String::concat);
    }

    /** The matches among the newest COUNT_READ_CAP rows of {@code rows} ("table WHERE ..."), and how many it read. */
    private static String newest(String rows, String search) {
        return "SELECT count(*) FILTER (WHERE " + search + ") AS n, count(*) AS read FROM (SELECT * FROM " + rows
                + " ORDER BY created_at DESC, id DESC LIMIT " + COUNT_READ_CAP + ") j";
    }

    /** Cancels a batch of live jobs in {@code states}; answers how many. */
    public Uni<Integer> cancelBatch(BulkScope scope, String[] states, Instant now, int limit) {
        return live(CANCEL_BATCH, scope, states, now, limit).map(rows -> rows.iterator().next().getLong("n").intValue());
    }

    /** Makes a batch of live jobs in {@code states} (scheduled, retryable) available at {@code now}. */
    public Uni<Integer> retryNowBatch(BulkScope scope, String[] states, Instant now, int limit) {
        return live(RETRY_NOW_BATCH, scope, states, now, limit).map(RowSet::rowCount);
    }

    /** Deletes a batch of live jobs in {@code states}; answers how many. */
    public Uni<Integer> deleteLiveBatch(BulkScope scope, String[] states, int limit) {
        return live(DELETE_LIVE_BATCH, scope, states, null, limit).map(RowSet::rowCount);
    }

    /** Deletes a batch of finished jobs in {@code states}; answers how many. */
    public Uni<Integer> deleteFinishedBatch(BulkScope scope, String[] states, int limit) {
        List<Object> params = new ArrayList<>();
        return run(scope, batch(DELETE_FINISHED_BATCH, scope, states, limit, null, params), params)
                .map(RowSet::rowCount);
    }

    /**
     * Starts a new run of a batch of finished jobs in {@code states} (dead letters, or the others, as
     * {@code deadLetter} says), as the single-job retry does; answers how many moved.
     */
    public Uni<Integer> newRunsBatch(BulkScope scope, String[] states, boolean deadLetter, Instant now, int limit) {
        List<Object> params = new ArrayList<>();
        String sql = batch(FINISHED_BATCH, scope, states, limit, deadLetter, params);
        return pool.withTransaction(conn -> settings(conn)
                .flatMap(v -> conn.preparedQuery(sql).execute(Tuple.tuple(params)))
                .flatMap(rows -> {
                    List<UUID> ids = new ArrayList<>(rows.rowCount());
                    rows.forEach(r -> ids.add(r.getUUID("id")));
                    if (ids.isEmpty()) {
                        return Uni.createFrom().item(0);
                    }
                    return conn.preparedQuery(HistorySql.START_NEW_RUNS).execute(Tuple.of(ids.toArray(UUID[]::new),
                            states, deadLetter, JobStore.odt(now))).map(RowSet::rowCount);
                }))
                .onFailure(JobQueryStore::timedOut).transform(JobBulkStore::tooSlow);
    }

    /** A live-table batch: $1 states, $2 limit, $3 the time when the statement takes one, then the scope. */
    private Uni<RowSet<Row>> live(String template, BulkScope scope, String[] states, Instant now, int limit) {
        List<Object> params = new ArrayList<>();
        return run(scope, batch(template, scope, states, limit, now == null ? null : JobStore.odt(now), params),
                params);
    }

    /**
     * A batch statement ({@code template}: one of the batches above) for {@code scope}: $1 the states, $2 the batch
     * size, $3 {@code third} (the time or the dead-letter flag) where the statement takes one, then the scope's
     * conditions; its parameters into {@code params} (RenderedSqlTest renders its shapes).
     */
    static String batch(String template, BulkScope scope, String[] states, int limit, Object third,
                        List<Object> params) {
        params.add(states);
        params.add(limit);
        if (third != null) {
            params.add(third);
        }
        return template.formatted(where(scope, params));
    }

    private Uni<RowSet<Row>> run(BulkScope scope, String sql, List<Object> params) {
        return pool.withTransaction(conn -> settings(conn)
                .flatMap(v -> conn.preparedQuery(sql).execute(Tuple.tuple(params))))
                .onFailure(JobQueryStore::timedOut).transform(JobBulkStore::tooSlow);
    }

    /** A count or batch that ran into the listing's time limit: the filter is too broad for its search. */
    private static Throwable tooSlow(Throwable e) {
        return OjsException.invalidField("q", "Counting or changing the jobs this filter matches"
                + " took longer than 5 s; narrow it with a queue, type, state or time range.");
    }

    private static Uni<?> settings(SqlConnection conn) {
        return conn.query(JobQueryStore.SETTINGS).execute();
    }

    /** The scope's conditions, " AND ..." each, their values appended to {@code params} and numbered so. */
    private static String where(BulkScope scope, List<Object> params) {
        List<String> where = new ArrayList<>();
        if (scope.ids() != null) {
            params.add(scope.ids().toArray(UUID[]::new));
            where.add("id = ANY($" + params.size() + ")");
        } else {
            JobQueryStore.conditions(scope.filter(), where, params);
        }
        return and(where);
    }
}
