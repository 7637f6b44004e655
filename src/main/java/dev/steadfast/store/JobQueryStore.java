package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.model.JobFilter;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Job listings for the console: filters, text search and keyset pagination on (created_at, id), never OFFSET, so
 * page 1,000 costs what page 1 costs. The statement is assembled from the fixed fragments below, only those the
 * filter uses, so that each combination gets a plan that can use its index (a catch-all
 * {@code ($1 IS NULL OR col = $1)} would defeat them); every value is a bound parameter.
 */
@ApplicationScoped
public class JobQueryStore {

    /** A listing is interactive: one that runs away (a text search matching most of a huge table) is cut off. */
    static final String TIME_LIMIT = "SET LOCAL statement_timeout = 5000";

    /**
     * A listing plans with its values. A text search must: a generic plan, which the statement cache switches to
     * after five runs, cannot tell a rare word (the trigram indexes) from a common one (the (created_at, id) order),
     * and the one it chose for a rare word at 1,000,000 jobs ran out of time. Every other listing too, since the
     * client caches statements up to 16,384 characters (store.PrimaryPoolCreator): a listing's statement longer than
     * 2,048, which every listing of four parts is, was never cached before and so was always planned with its values,
     * which is how the pages were timed at 1,000,000 jobs (docs/performance/2026-11-26-console-at-a-million.md).
     */
    static final String CUSTOM_PLANS = "SET LOCAL plan_cache_mode = force_custom_plan";

    /**
     * A listing reads a few thousand rows at most: compiling it (JIT, which a search's estimated cost over a million
     * jobs triggers: 560 ms of a 850 ms type-prefix search) or starting parallel workers for parts that are mostly
     * skipped costs more than it saves.
     */
    static final String INTERACTIVE = "SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0";

    /**
     * The settings of a listing's or bulk action's transaction: the time limit, {@link #INTERACTIVE} and
     * {@link #CUSTOM_PLANS}.
     */
    static final String SETTINGS = TIME_LIMIT + "; " + INTERACTIVE + "; " + CUSTOM_PLANS;

    /** How much of the args' JSON text a listing shows; one character more is read to tell that it was cut. */
    public static final int ARGS_PREVIEW = 120;

    public static final String SUMMARY_COLUMNS = "id, type, queue, state, priority, attempt, max_attempts, tags, created_at,"
            + " run_at, dead_letter, run, left(error->>'type', 200) AS error_type,"
            + " left(error->>'message', 300) AS error_message, left(args::text, " + (ARGS_PREVIEW + 1) + ") AS args_preview";

    /**
     * Text search over args, meta and error history, through the trigram index of each closed history partition
     * ({@link SearchIndexes}); the live table and today's history are read in order, a bounded number of rows per page.
     */
    static final String TEXT = "job_search_text(args, meta, errors) ILIKE $%d";
    static final String STATE = "state = $%d";
    static final String QUEUE = "queue = $%d";
    static final String TYPE = "type = $%d";
    static final String TYPE_PREFIX = "type LIKE $%d";
    static final String TAG = "tags @> ARRAY[$%d::text]";
    static final String SINCE = "created_at >= $%d";
    static final String UNTIL = "created_at < $%d";
    static final String AFTER_DESC = "(created_at, id) < ($%d, $%d)";
    static final String AFTER_ASC = "(created_at, id) > ($%d, $%d)";

    private final Pool pool;

    public JobQueryStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Rows of each part (table or history partition) a search listing may read in order before it turns to the
     * search's own index (see {@link #searchListing}): at 8-11 µs a row with a text condition, at most about 20 ms a
     * part; a term on 2.5% of the newest rows or more fills its page within them. Fewer sends medium-common terms to
     * their index too often (at 500, a common args number took 1 s at 1,000,000 jobs).
     */
    static final int SCAN_ROWS = 2000;

    /**
     * A page of a listing, and where a text search stopped short: {@code reach} is the last row (in the listing's
     * order) it read of a part without a search index (the live table, today's history: {@link SearchIndexes}),
     * when such a part holds more rows beyond it; every match up to and including that row is in {@code jobs}, none
     * beyond it, so the listing goes on from there like from a page's last row. Null when nothing was left unread.
     */
    public record Listing(List<JobSummary> jobs, Reach reach) {
    }

    /** A position in a listing's order: (created_at, id). */
    public record Reach(Instant at, UUID id) {
    }

    /**
     * Up to {@code limit} jobs matching {@code f}, newest first (or oldest first when {@code ascending}), strictly
     * after the (afterAt, afterId) cursor in that order when one is given; a text search stops short where
     * {@link Listing#reach} says.
     */
    public Uni<Listing> list(JobFilter f, boolean ascending, Instant afterAt, UUID afterId, int limit) {
        return list(f, ascending, afterAt, afterId, limit, SCAN_ROWS);
    }

    /**
     * As {@link #list(JobFilter, boolean, Instant, UUID, int)}, a search reading {@code scanRows} in order per part
     * before it turns to the term's index, and, for a part without a search index, at most {@code scanRows} rows.
     */
    Uni<Listing> list(JobFilter f, boolean ascending, Instant afterAt, UUID afterId, int limit, int scanRows) {
        List<Object> filterParams = new ArrayList<>();
        List<String> narrowing = new ArrayList<>();
        List<String> searching = new ArrayList<>();
        narrowing(f, ascending, afterAt, afterId, narrowing, filterParams);
        searches(f, searching, filterParams);
        // the history's partitions read one by one: a search, or a filter whose index a partition may not have yet
        boolean byPart = !searching.isEmpty() || (f.state() == null || f.state().terminal()) && f.usesClosedDayIndexes();
        return pool.withTransaction(conn -> conn.query(SETTINGS).execute()
                .flatMap(v -> {
                    // the statements below add their own parameters: each attempt (the retry below) starts afresh
                    List<Object> params = new ArrayList<>(filterParams);
                    if (!byPart) {
                        return conn.preparedQuery(plainListing(narrowing, f.state(), ascending, limit, params))
                                .execute(Tuple.tuple(params)).map(rows -> new Listing(summaries(rows), null));
                    }
                    return conn.query(SearchIndexes.LEAVES).execute().flatMap(rows -> {
                        List<Part> parts = parts(f.state(), SearchIndexes.leaves(rows));
                        List<Object> reachParams = new ArrayList<>();
                        String reachSql = reach(f, parts, ascending, afterAt, afterId, scanRows, reachParams);
                        Uni<Reach> reach = reachSql == null ? Uni.createFrom().nullItem()
                                : conn.preparedQuery(reachSql).execute(Tuple.tuple(reachParams)).map(r -> {
                                    if (r.rowCount() == 0) {
                                        return null;
                                    }
                                    Row row = r.iterator().next();
                                    return new Reach(JobRows.instant(row, "created_at"), row.getUUID("id"));
                                });
                        return reach.flatMap(stop -> conn.preparedQuery(searchListing(f, parts, narrowing, searching,
                                        ascending, stop, limit, scanRows, params))
                                .execute(Tuple.tuple(params)).map(r -> new Listing(summaries(r), stop)));
                    });
                }))
                // a day's partition dropped by retention between reading the list and the listing: read it again
                .onFailure(JobQueryStore::partitionGone).retry().atMost(1)
                .onFailure(JobQueryStore::timedOut).transform(e -> OjsException.invalidField("q",
                        "The search took longer than 5 s; narrow it with a queue, type, state or time range."));
    }

    /**
     * The listing of a filter without a search and without a condition a closed day's partition may lack an index
     * for: one statement, its parameters into {@code params} (RenderedSqlTest renders its shapes).
     */
    static String plainListing(JobFilter f, boolean ascending, Instant afterAt, UUID afterId, int limit,
                               List<Object> params) {
        List<String> where = new ArrayList<>();
        narrowing(f, ascending, afterAt, afterId, where, params);
        return plainListing(where, f.state(), ascending, limit, params);
    }

    /** {@link #plainListing(JobFilter, boolean, Instant, UUID, int, List)} over the conditions already narrowed. */
    private static String plainListing(List<String> narrowing, JobState state, boolean ascending, int limit,
                                       List<Object> params) {
        params.add(limit);
        return listing(narrowing, state, ascending, params.size());
    }

    /**
     * Where a listing that reads the history partition by partition stops ({@link #reach(List, List, boolean, int)}),
     * over those of {@code parts} it reads in order only ({@link Part#bounded}); null when there is none. Its
     * parameters into {@code params} (RenderedSqlTest renders its shapes).
     */
    static String reach(JobFilter f, List<Part> parts, boolean ascending, Instant afterAt, UUID afterId, int scanRows,
                        List<Object> params) {
        List<Part> unindexed = parts.stream().filter(p -> p.bounded(f)).toList();
        List<List<String>> narrowing = new ArrayList<>();
        for (Part p : unindexed) {
            List<String> where = new ArrayList<>();
            // a partition without the filter's index: its rows in order, the filter applied to them
            if (p.history()) {
                range(f, ascending, afterAt, afterId, where, params);
            } else {
                narrowing(f, ascending, afterAt, afterId, where, params);
            }
            narrowing.add(where);
        }
        return unindexed.isEmpty() ? null : reach(unindexed, narrowing, ascending, scanRows);
    }

    /**
     * The listing of a filter that reads the history partition by partition (a search, or a filter whose index a
     * partition may not have yet) over {@code parts}, stopped at {@code stop} when its {@link #reach} found one: one
     * statement, its parameters into {@code params} (RenderedSqlTest renders its shapes).
     */
    static String searchListing(JobFilter f, List<Part> parts, boolean ascending, Instant afterAt, UUID afterId,
                                Reach stop, int limit, int scanRows, List<Object> params) {
        List<String> narrowing = new ArrayList<>();
        List<String> searching = new ArrayList<>();
        narrowing(f, ascending, afterAt, afterId, narrowing, params);
        searches(f, searching, params);
        return searchListing(f, parts, narrowing, searching, ascending, stop, limit, scanRows, params);
    }

    /**
     * {@link #searchListing(JobFilter, List, boolean, Instant, UUID, Reach, int, int, List)} over the conditions
     * already narrowed.
     */
    private static String searchListing(JobFilter f, List<Part> parts, List<String> narrowing, List<String> searching,
                                        boolean ascending, Reach stop, int limit, int scanRows, List<Object> params) {
        // the only parameter ending in % that does not start with one (text and args needles do)
        int typePrefixParam = f.typePrefix() && f.type() != null ? params.indexOf(likePrefix(f.type())) + 1 : 0;
        List<String> within = new ArrayList<>(narrowing);
        if (stop != null) {
            params.add(JobStore.odt(stop.at()));
            params.add(stop.id());
            within.add((ascending ? UP_TO_ASC : UP_TO_DESC).formatted(params.size() - 1, params.size()));
        }
        params.add(limit);
        return searchListing(parts, within, searching, typePrefixParam, p -> p.bounded(f), ascending, params.size(),
                scanRows);
    }

    /** The state, the filter's ordered conditions (queue, exact type, time range) and the cursor, into {@code where}. */
    private static void narrowing(JobFilter f, boolean ascending, Instant afterAt, UUID afterId, List<String> where,
                                  List<Object> params) {
        add(where, params, STATE, f.state() == null ? null : f.state().wire());
        add(where, params, QUEUE, f.queue());
        if (!f.typePrefix()) {
            add(where, params, TYPE, f.type());
        }
        range(f, ascending, afterAt, afterId, where, params);
    }

    /** The conditions the listing's own order serves: the time range and the cursor, into {@code where}. */
    private static void range(JobFilter f, boolean ascending, Instant afterAt, UUID afterId, List<String> where,
                              List<Object> params) {
        add(where, params, SINCE, JobStore.odt(f.since()));
        add(where, params, UNTIL, JobStore.odt(f.until()));
        if (afterAt != null) {
            params.add(JobStore.odt(afterAt));
            params.add(afterId);
            where.add((ascending ? AFTER_ASC : AFTER_DESC).formatted(params.size() - 1, params.size()));
        }
    }

    /** A listing stopped at a {@link Reach}: that row and those before it in the listing's order. */
    static final String UP_TO_DESC = "(created_at, id) >= ($%d, $%d)";
    static final String UP_TO_ASC = "(created_at, id) <= ($%d, $%d)";

    private static List<JobSummary> summaries(RowSet<Row> rows) {
        List<JobSummary> out = new ArrayList<>(rows.rowCount());
        for (Row r : rows) {
            out.add(summary(r));
        }
        return out;
    }

    /**
     * Where a listing over {@code parts} (those it reads in order only: {@link Part#bounded}) must stop: of each part
     * holding more than {@code scanRows} rows in the listing's order under its conditions ({@code narrowing}, one list
     * per part), its {@code scanRows}-th row; the first of those in that order (no row: every such part is read
     * whole). Reads at most {@code scanRows + 1} index entries per part.
     */
    static String reach(List<Part> parts, List<List<String>> narrowing, boolean ascending, int scanRows) {
        String dir = ascending ? "ASC" : "DESC";
        String order = " ORDER BY created_at " + dir + ", id " + dir;
        StringBuilder sql = new StringBuilder("SELECT created_at, id FROM (");
        for (int i = 0; i < parts.size(); i++) {
            Part part = parts.get(i);
            String narrow = narrowing.get(i).isEmpty() ? "" : " AND " + String.join(" AND ", narrowing.get(i));
            String k = "k" + i;
            sql.append(i == 0 ? "" : " UNION ALL ").append("(WITH ").append(k)
                    .append(" AS MATERIALIZED (SELECT created_at, id FROM ").append(part.table()).append(" WHERE ")
                    .append(part.predicate()).append(narrow).append(order).append(" LIMIT ").append(scanRows + 1)
                    .append(") SELECT created_at, id FROM ").append(k).append(" WHERE (SELECT count(*) FROM ")
                    .append(k).append(") > ").append(scanRows).append(order).append(" OFFSET ")
                    .append(scanRows - 1).append(" LIMIT 1)");
        }
        return sql.append(") r").append(order).append(" LIMIT 1").toString();
    }

    /**
     * The listing statement. A state filter names the one table that holds that state (LiveStates); without one the
     * page is the merge of bounded parts ({@link #PARTS}: waiting and active live jobs through jobs_live_created_idx
     * and the lease index; the history through its keyset indexes, V18),
     * each cut at the page size before the merge.
     *
     * @param state the filtered state, or null
     */
    static String listing(List<String> where, JobState state, boolean ascending, int limitParam) {
        String dir = ascending ? "ASC" : "DESC";
        String order = " ORDER BY created_at " + dir + ", id " + dir + " LIMIT $" + limitParam;
        String rest = where.isEmpty() ? "" : " AND " + String.join(" AND ", where);
        if (state != null) {
            return "SELECT " + SUMMARY_COLUMNS + " FROM " + LiveStates.tableOf(state) + " WHERE true" + rest + order;
        }
        StringBuilder sql = new StringBuilder();
        for (Part part : PARTS) {
            sql.append(sql.length() == 0 ? "" : " UNION ALL ").append("(SELECT ").append(SUMMARY_COLUMNS)
                    .append(" FROM ").append(part.table()).append(" WHERE ").append(part.predicate()).append(rest)
                    .append(order).append(')');
        }
        return sql.append(order).toString();
    }

    /** Every live job but the active ones (which the lease index finds, being few). */
    static final String WAITING = "state <> 'active'";

    /**
     * The parts of a listing without a state filter, each matching the predicates of its indexes: waiting jobs,
     * active ones (few: the lease index) and the history.
     */
    static final List<Part> PARTS = List.of(new Part("jobs", WAITING, false, false),
            new Part("jobs", "state = 'active'", false, false), new Part("job_history", "true", true, false));

    /**
     * A part of a listing: {@code table} holding the rows {@code predicate} selects (SQL), whether it is (part of) the
     * history, and whether it has the search and filter indexes of a closed partition ({@link SearchIndexes}: the
     * trigrams, and the state, queue, type and tag keyset indexes).
     */
    record Part(String table, String predicate, boolean history, boolean indexed) {

        /** Whether the (type, created_at, id) index a type prefix can be turned into types with is there. */
        boolean typeIndex() {
            return history && indexed;
        }

        /**
         * Whether a listing by {@code f} reads this part in order only, a bounded number of rows a page: it lacks the
         * index of one of {@code f}'s conditions. The live table for a text or args search (it has no trigrams); a
         * history partition not indexed yet (today's) for any condition but the time range.
         */
        boolean bounded(JobFilter f) {
            return !indexed && (history ? f.usesClosedDayIndexes() : f.searchesText());
        }
    }

    /**
     * The parts a search listing reads: those of {@link #PARTS} (or the one table of the filtered state), the history
     * split into its partitions (leaves), each read on its own.
     */
    static List<Part> parts(JobState state, List<SearchIndexes.Leaf> historyLeaves) {
        List<Part> parts = new ArrayList<>();
        if (state == null || !state.terminal()) {
            if (state != JobState.ACTIVE) {
                parts.add(PARTS.get(0));
            }
            if (state == null || state == JobState.ACTIVE) {
                parts.add(PARTS.get(1));
            }
        }
        if (state == null || state.terminal()) {
            historyLeaves.forEach(leaf -> parts.add(new Part(leaf.name(), "true", true, leaf.indexed())));
        }
        return parts;
    }

    /**
     * The types in {@code table} that match the type prefix ${@code param}, read from its (type, created_at, id) index
     * one distinct value at a time (a few dozen index probes, not a read of the rows): a LIKE prefix cannot use that
     * index unless the database's collation is "C", and every row of the part would be read instead.
     */
    static String typesMatching(String table, int param) {
        return "type = ANY(ARRAY(WITH RECURSIVE t(type) AS (SELECT min(type) FROM " + table
                + " UNION ALL SELECT (SELECT min(type) FROM " + table + " WHERE type > t.type) FROM t"
                + " WHERE t.type IS NOT NULL) SELECT type FROM t WHERE " + TYPE_PREFIX.formatted(param) + "))";
    }

    /**
     * A listing with search conditions (text, args, a type prefix, a tag), which neither of its plans serves alone:
     * read in (created_at, id) order, a common term stops after a few rows, but a run of rows without it (a burst of
     * 300,000 jobs of another type, say) is read to its end at 8-11 µs a row; the term's own index (trigrams, type,
     * tags) finds every match at once but must fetch and sort them all. So each part is split at {@code b}, the last of
     * its first {@code scanRows} rows in the listing's order: its matches up to there ({@code a}, planned freely:
     * the order's index, which stops at {@code b}, for a common term; the term's index for a rare one) and, only when
     * those are fewer than a page, its matches beyond {@code b} through the term's index, sorted (the
     * {@code + interval} keeps the order's index out of that plan; {@code count(*) FROM a} skips it otherwise, before
     * anything of it runs). Parts are the partitions, since a run without the term is in one of them while the others
     * fill their page in order. Every row is on one side of {@code b}: the page is the plain ordered statement's.
     *
     * <p>A part that lacks the index of one of the listing's conditions ({@code bounded}: the live table for a text or
     * args search, today's history for any filter) is read in order only: the caller has bounded the listing
     * ({@link #reach}) so that such a part holds at most {@code scanRows} rows within it. So is every part when there
     * is no search condition (a filter its indexes serve).
     *
     * @param typePrefixParam the parameter of the type prefix among {@code searching}, 0 if none
     */
    static String searchListing(List<Part> parts, List<String> narrowing, List<String> searching, int typePrefixParam,
                                Predicate<Part> bounded, boolean ascending, int limitParam,
                                int scanRows) {
        String dir = ascending ? "ASC" : "DESC";
        String back = ascending ? "DESC" : "ASC";
        String order = " ORDER BY created_at " + dir + ", id " + dir;
        String limit = " LIMIT $" + limitParam;
        String narrow = narrowing.isEmpty() ? "" : " AND " + String.join(" AND ", narrowing);
        String search = String.join(" AND ", searching);
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            Part part = parts.get(i);
            String rows = part.table() + " WHERE " + part.predicate() + narrow;
            String split = "b" + i;
            String read = "a" + i;
            String rest = typePrefixParam == 0 || !part.typeIndex() ? search : String.join(" AND ", searching.stream()
                    .map(c -> c.equals(TYPE_PREFIX.formatted(typePrefixParam))
                            ? typesMatching(part.table(), typePrefixParam) : c).toList());
            if (searching.isEmpty() || bounded.test(part)) {
                sql.append(i == 0 ? "" : " UNION ALL ").append("(SELECT ").append(SUMMARY_COLUMNS).append(" FROM ")
                        .append(rows).append(searching.isEmpty() ? "" : " AND " + rest).append(order).append(limit)
                        .append(')');
                continue;
            }
            sql.append(i == 0 ? "" : " UNION ALL ")
                    .append("(WITH ").append(split).append(" AS MATERIALIZED (SELECT created_at, id FROM (SELECT")
                    .append(" created_at, id FROM ").append(rows).append(order).append(" LIMIT ").append(scanRows)
                    .append(") k ORDER BY created_at ").append(back).append(", id ").append(back).append(" LIMIT 1), ")
                    .append(read).append(" AS MATERIALIZED (SELECT ").append(SUMMARY_COLUMNS).append(" FROM ")
                    .append(rows).append(" AND ").append(search).append(" AND (created_at, id) ")
                    .append(ascending ? "<=" : ">=").append(" (SELECT created_at, id FROM ").append(split).append(')')
                    .append(order).append(limit).append(')')
                    .append(" SELECT * FROM ").append(read)
                    .append(" UNION ALL (SELECT ").append(SUMMARY_COLUMNS).append(" FROM ").append(rows)
                    .append(" AND (SELECT count(*) FROM ").append(read).append(") < $").append(limitParam)
                    .append(" AND ").append(rest)
                    .append(" AND (created_at + interval '0 s', id) ").append(ascending ? '>' : '<')
                    .append(" (SELECT created_at, id FROM ").append(split).append(')')
                    .append(" ORDER BY created_at + interval '0 s' ").append(dir).append(", id ").append(dir)
                    .append(limit).append("))");
        }
        // a subquery: a lone part read in order ends in an ORDER BY of its own
        return "SELECT * FROM (" + sql + ") u" + order + limit;
    }

    /**
     * An args condition, in two parts: the trigram index narrows the rows to those whose args text holds
     * {@link #needle} (the value, or the last key and the value, as jsonb prints them; a superset, matched without
     * case), then the path itself is checked ($1: the jsonpath, $2: its variables). A value inside an array, or beyond
     * the first 8,000 characters of the args text, is not found, as with text search.
     */
    static final String ARGS_TEXT = "job_search_text(args, meta, errors) ILIKE $%d";
    static final String ARGS_PATH = "jsonb_path_exists(args, $%d::text::jsonpath, $%d::text::jsonb)";

    /**
     * Adds every condition of {@code f} but its state (the caller places that per table) to {@code where}, each a
     * bound parameter appended to {@code params}.
     */
    public static void conditions(JobFilter f, List<String> where, List<Object> params) {
        conditions(f, where, where, params);
    }

    /**
     * As {@link #conditions(JobFilter, List, List)}, the conditions an ordered index serves (queue, exact type, time
     * range) in {@code narrowing}, the searches (type prefix, tag, text, args) in {@code searching}.
     */
    static void conditions(JobFilter f, List<String> narrowing, List<String> searching, List<Object> params) {
        conditions(f, narrowing, narrowing, searching, params);
    }

    /**
     * As {@link #conditions(JobFilter, List, List, List)}, the queue and exact type in {@code filters} and the time
     * range, which the listing's own order serves, in {@code range}.
     */
    static void conditions(JobFilter f, List<String> filters, List<String> range, List<String> searching,
                           List<Object> params) {
        add(filters, params, QUEUE, f.queue());
        if (!f.typePrefix()) {
            add(filters, params, TYPE, f.type());
        }
        add(range, params, SINCE, JobStore.odt(f.since()));
        add(range, params, UNTIL, JobStore.odt(f.until()));
        searches(f, searching, params);
    }

    /** The searches: type prefix, tag, text, args. */
    private static void searches(JobFilter f, List<String> where, List<Object> params) {
        if (f.typePrefix()) {
            add(where, params, TYPE_PREFIX, likePrefix(f.type()));
        }
        add(where, params, TAG, f.tag());
        add(where, params, TEXT, f.text() == null ? null : "%" + escapeLike(f.text()) + "%");
        for (JobFilter.ArgsEquals a : f.args()) {
            add(where, params, ARGS_TEXT, "%" + escapeLike(needle(a)) + "%");
            params.add(jsonPath(a.path()));
            params.add("{\"v\": " + a.json() + "}");
            where.add(ARGS_PATH.formatted(params.size() - 1, params.size()));
        }
    }

    /**
     * What the trigram index looks for: a string of 8 characters or more (quotes included) as itself, whose
     * trigrams are rarer than the key's (at a million jobs a rare invoice id took 57-71 ms this way, 105-143 ms
     * with its key); a shorter string, a number or a boolean with its key ({@code "width": 640}), since alone it
     * would match nearly every job.
     */
    static String needle(JobFilter.ArgsEquals a) {
        if (a.json().startsWith("\"") && a.json().length() >= 8) {
            return a.json();
        }
        return "\"" + a.path().get(a.path().size() - 1) + "\": " + a.json();
    }

    /** {@code $."a"."b" ? (@ == $v)}: lax, so arrays on the way are looked through; keys are letters and digits. */
    static String jsonPath(List<String> path) {
        StringBuilder sb = new StringBuilder("$");
        path.forEach(k -> sb.append(".\"").append(k).append('"'));
        return sb.append(" ? (@ == $v)").toString();
    }

    static boolean partitionGone(Throwable e) {
        return e instanceof PgException pg && "42P01".equals(pg.getSqlState());
    }

    static boolean timedOut(Throwable e) {
        return e instanceof PgException pg && "57014".equals(pg.getSqlState());
    }

    private static void add(List<String> where, List<Object> params, String fragment, Object value) {
        if (value != null) {
            params.add(value);
            where.add(fragment.formatted(params.size()));
        }
    }

    static String escapeLike(String s) {
        return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private static String likePrefix(String prefix) {
        return prefix == null ? null : escapeLike(prefix) + "%";
    }

    public static JobSummary summary(Row r) {
        String[] tags = r.getArrayOfStrings("tags");
        return new JobSummary(r.getUUID("id"), r.getString("type"), r.getString("queue"),
                JobState.fromWire(r.getString("state")).orElseThrow(), r.getInteger("priority"),
                r.getInteger("attempt"), r.getInteger("max_attempts"), tags == null ? List.of() : Arrays.asList(tags),
                JobRows.instant(r, "created_at"), JobRows.instant(r, "run_at"), r.getBoolean("dead_letter"),
                r.getInteger("run"), r.getString("error_type"), r.getString("error_message"),
                r.getString("args_preview"));
    }
}
