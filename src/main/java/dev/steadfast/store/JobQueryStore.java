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
     * A text search plans with its pattern: a generic plan, which the statement cache switches to after five runs,
     * cannot tell a rare word (the trigram indexes) from a common one (the (created_at, id) order), and the one it
     * chose for a rare word at 1,000,000 jobs ran out of time.
     */
    static final String CUSTOM_PLANS = "SET LOCAL plan_cache_mode = force_custom_plan";

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
     * Up to {@code limit} jobs matching {@code f}, newest first (or oldest first when {@code ascending}), strictly
     * after the (afterAt, afterId) cursor in that order when one is given.
     */
    public Uni<List<JobSummary>> list(JobFilter f, boolean ascending, Instant afterAt, UUID afterId, int limit) {
        List<Object> params = new ArrayList<>();
        List<String> where = new ArrayList<>();
        add(where, params, STATE, f.state() == null ? null : f.state().wire());
        conditions(f, where, params);
        if (afterAt != null) {
            params.add(JobStore.odt(afterAt));
            params.add(afterId);
            where.add((ascending ? AFTER_ASC : AFTER_DESC).formatted(params.size() - 1, params.size()));
        }
        params.add(limit);
        String sql = listing(where, f.state(), ascending, params.size());
        String settings = f.text() == null && f.args().isEmpty() ? TIME_LIMIT : TIME_LIMIT + "; " + CUSTOM_PLANS;
        return pool.withTransaction(conn -> conn.query(settings).execute()
                .flatMap(v -> conn.preparedQuery(sql).execute(Tuple.tuple(params))))
                .map(rows -> {
                    List<JobSummary> out = new ArrayList<>(rows.rowCount());
                    for (Row r : rows) {
                        out.add(summary(r));
                    }
                    return out;
                })
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
        for (String part : PARTS) {
            sql.append(sql.length() == 0 ? "" : " UNION ALL ").append("(SELECT ").append(SUMMARY_COLUMNS)
                    .append(" FROM ").append(part).append(rest).append(order).append(')');
        }
        return sql.append(order).toString();
    }

    /** The predicate of jobs_search_idx (V18): every live job but the active ones. */
    static final String WAITING = "state <> 'active'";

    /**
     * The parts of a listing without a state filter, each matching the predicates of its indexes: waiting jobs
     * (jobs_search_idx for text), active ones (few: the lease index) and the history.
     */
    static final List<String> PARTS = List.of("jobs WHERE " + WAITING, "jobs WHERE state = 'active'",
            "job_history WHERE true");

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
        add(where, params, QUEUE, f.queue());
        add(where, params, f.typePrefix() ? TYPE_PREFIX : TYPE, f.typePrefix() ? likePrefix(f.type()) : f.type());
        add(where, params, TAG, f.tag());
        add(where, params, SINCE, JobStore.odt(f.since()));
        add(where, params, UNTIL, JobStore.odt(f.until()));
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
