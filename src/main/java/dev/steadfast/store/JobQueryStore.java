package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

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
     * Text search over args, meta and error history, through the trigram indexes job_history_search_idx and, for
     * waiting live jobs, jobs_search_idx (V18).
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

    /** The history's partitions (leaves), which a search listing reads one by one. */
    static final String HISTORY_LEAVES = "SELECT relid::regclass::text AS leaf FROM pg_partition_tree('job_history')"
            + " WHERE isleaf ORDER BY 1";

    /**
     * Up to {@code limit} jobs matching {@code f}, newest first (or oldest first when {@code ascending}), strictly
     * after the (afterAt, afterId) cursor in that order when one is given.
     */
    public Uni<List<JobSummary>> list(JobFilter f, boolean ascending, Instant afterAt, UUID afterId, int limit) {
        return list(f, ascending, afterAt, afterId, limit, SCAN_ROWS);
    }

    /** As {@link #list(JobFilter, boolean, Instant, UUID, int)}, a search reading {@code scanRows} in order per part. */
    Uni<List<JobSummary>> list(JobFilter f, boolean ascending, Instant afterAt, UUID afterId, int limit, int scanRows) {
        List<Object> params = new ArrayList<>();
        List<String> narrowing = new ArrayList<>();
        List<String> searching = new ArrayList<>();
        add(narrowing, params, STATE, f.state() == null ? null : f.state().wire());
        conditions(f, narrowing, searching, params);
        if (afterAt != null) {
            params.add(JobStore.odt(afterAt));
            params.add(afterId);
            narrowing.add((ascending ? AFTER_ASC : AFTER_DESC).formatted(params.size() - 1, params.size()));
        }
        params.add(limit);
        int limitParam = params.size();
        // the only parameter ending in % that does not start with one (text and args needles do)
        int typePrefixParam = f.typePrefix() && f.type() != null ? params.indexOf(likePrefix(f.type())) + 1 : 0;
        return pool.withTransaction(conn -> conn.query(SETTINGS).execute()
                .flatMap(v -> searching.isEmpty() ? Uni.createFrom().item(listing(narrowing, f.state(), ascending,
                        limitParam)) : conn.query(HISTORY_LEAVES).execute().map(rows -> {
                            List<String> leaves = new ArrayList<>();
                            rows.forEach(r -> leaves.add(r.getString("leaf")));
                            return searchListing(parts(f.state(), leaves), narrowing, searching, typePrefixParam,
                                    ascending, limitParam, scanRows);
                        }))
                .flatMap(sql -> conn.preparedQuery(sql).execute(Tuple.tuple(params))))
                .map(rows -> {
                    List<JobSummary> out = new ArrayList<>(rows.rowCount());
                    for (Row r : rows) {
                        out.add(summary(r));
                    }
                    return out;
                })
                // a day's partition dropped by retention between reading the list and the listing: read it again
                .onFailure(JobQueryStore::partitionGone).retry().atMost(1)
                .onFailure(JobQueryStore::timedOut).transform(e -> OjsException.invalidField("q",
                        "The search took longer than 5 s; narrow it with a queue, type, state or time range."));
    }

    /**
     * The listing statement. A state filter names the one table that holds that state (LiveStates); without one the
     * page is the merge of bounded parts ({@link #PARTS}: waiting and active live jobs through jobs_live_created_idx
     * or, for text, jobs_search_idx and the lease index; the history through its keyset and trigram indexes, V18),
     * each cut at the page size before the merge.
     *
     * @param state the filtered state, or null
     */
    static String listing(List<String> where, JobState state, boolean ascending, int limitParam) {
        String dir = ascending ? "ASC" : "DESC";
        String order = " ORDER BY created_at " + dir + ", id " + dir + " LIMIT $" + limitParam;
        String rest = where.isEmpty() ? "" : " AND " + String.join(" AND ", where);
        if (state != null) {
            // the literal lets a generic plan use the partial jobs_search_idx, which a bound state cannot prove
            String waiting = state.terminal() || state == JobState.ACTIVE ? "" : " AND " + WAITING;
            return "SELECT " + SUMMARY_COLUMNS + " FROM " + LiveStates.tableOf(state) + " WHERE true" + waiting + rest
                    + order;
        }
        StringBuilder sql = new StringBuilder();
        for (Part part : PARTS) {
            sql.append(sql.length() == 0 ? "" : " UNION ALL ").append("(SELECT ").append(SUMMARY_COLUMNS)
                    .append(" FROM ").append(part.table()).append(" WHERE ").append(part.predicate()).append(rest)
                    .append(order).append(')');
        }
        return sql.append(order).toString();
    }

    /** The predicate of jobs_search_idx (V18): every live job but the active ones. */
    static final String WAITING = "state <> 'active'";

    /**
     * The parts of a listing without a state filter, each matching the predicates of its indexes: waiting jobs
     * (jobs_search_idx for text), active ones (few: the lease index) and the history.
     */
    static final List<Part> PARTS = List.of(new Part("jobs", WAITING, false),
            new Part("jobs", "state = 'active'", false), new Part("job_history", "true", true));

    /**
     * A part of a listing: {@code table} holding the rows {@code predicate} selects (SQL), and whether the
     * table has the (type, created_at, id) index a type prefix can be turned into types with.
     */
    record Part(String table, String predicate, boolean typeIndex) {
    }

    /**
     * The parts a search listing reads: those of {@link #PARTS} (or the one table of the filtered state), the history
     * split into its partitions (leaves), each read on its own.
     */
    static List<Part> parts(JobState state, List<String> historyLeaves) {
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
            historyLeaves.forEach(leaf -> parts.add(new Part(leaf, "true", true)));
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
     * @param typePrefixParam the parameter of the type prefix among {@code searching}, 0 if none
     */
    static String searchListing(List<Part> parts, List<String> narrowing, List<String> searching, int typePrefixParam,
                                boolean ascending, int limitParam, int scanRows) {
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
        return sql.append(order).append(limit).toString();
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
        add(narrowing, params, QUEUE, f.queue());
        if (f.typePrefix()) {
            add(searching, params, TYPE_PREFIX, likePrefix(f.type()));
        } else {
            add(narrowing, params, TYPE, f.type());
        }
        add(searching, params, TAG, f.tag());
        add(narrowing, params, SINCE, JobStore.odt(f.since()));
        add(narrowing, params, UNTIL, JobStore.odt(f.until()));
        add(searching, params, TEXT, f.text() == null ? null : "%" + escapeLike(f.text()) + "%");
        for (JobFilter.ArgsEquals a : f.args()) {
            add(searching, params, ARGS_TEXT, "%" + escapeLike(needle(a)) + "%");
            params.add(jsonPath(a.path()));
            params.add("{\"v\": " + a.json() + "}");
            searching.add(ARGS_PATH.formatted(params.size() - 1, params.size()));
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
                dev.steadfast.domain.JobState.fromWire(r.getString("state")).orElseThrow(), r.getInteger("priority"),
                r.getInteger("attempt"), r.getInteger("max_attempts"), tags == null ? List.of() : Arrays.asList(tags),
                JobRow.instant(r, "created_at"), JobRow.instant(r, "run_at"), r.getBoolean("dead_letter"),
                r.getInteger("run"), r.getString("error_type"), r.getString("error_message"),
                r.getString("args_preview"));
    }
}
