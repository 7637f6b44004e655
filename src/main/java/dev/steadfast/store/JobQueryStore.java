package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import io.smallrye.mutiny.Uni;
import io.vertx.pgclient.PgException;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
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

    static final String SUMMARY_COLUMNS = "id, type, queue, state, priority, attempt, max_attempts, tags, created_at,"
            + " run_at, dead_letter, run, left(error->>'type', 200) AS error_type,"
            + " left(error->>'message', 300) AS error_message";

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
        return list(f, ascending, afterAt, afterId, limit, SEARCH_CAP, MERGED_SEARCH_MS);
    }

    /**
     * {@link #list} with another cap and another time for the one-statement text search (tests; 0: part by part
     * at once).
     */
    Uni<List<JobSummary>> list(JobFilter f, boolean ascending, Instant afterAt, UUID afterId, int limit, int cap,
                               int mergedMs) {
        List<Object> params = new ArrayList<>();
        List<String> where = new ArrayList<>();
        add(where, params, STATE, f.state() == null ? null : f.state().wire());
        add(where, params, QUEUE, f.queue());
        add(where, params, f.typePrefix() ? TYPE_PREFIX : TYPE, f.typePrefix() ? likePrefix(f.type()) : f.type());
        add(where, params, TAG, f.tag());
        add(where, params, SINCE, JobStore.odt(f.since()));
        add(where, params, UNTIL, JobStore.odt(f.until()));
        add(where, params, TEXT, f.text() == null ? null : "%" + escapeLike(f.text()) + "%");
        if (afterAt != null) {
            params.add(JobStore.odt(afterAt));
            params.add(afterId);
            where.add((ascending ? AFTER_ASC : AFTER_DESC).formatted(params.size() - 1, params.size()));
        }
        params.add(limit);
        Uni<List<JobSummary>> found;
        if (f.text() != null) {
            Uni<List<JobSummary>> byParts = pool.withTransaction(conn -> conn.query(TIME_LIMIT).execute()
                    .flatMap(v -> new TextSearch(conn, where, params, f.state(), ascending, limit, cap).run()));
            if (mergedMs <= 0) {
                found = byParts;
            } else {
                String sql = listing(where, f.state(), ascending, params.size());
                found = pool.withTransaction(conn -> conn.query("SET LOCAL statement_timeout = " + mergedMs
                                        + "; SET LOCAL plan_cache_mode = force_custom_plan").execute()
                                .flatMap(v -> conn.preparedQuery(sql).execute(Tuple.tuple(params))))
                        .map(JobQueryStore::summaries)
                        .onFailure(JobQueryStore::timedOut).recoverWithUni(() -> byParts);
            }
        } else {
            String sql = listing(where, f.state(), ascending, params.size());
            found = pool.withTransaction(conn -> conn.query(TIME_LIMIT).execute()
                    .flatMap(v -> conn.preparedQuery(sql).execute(Tuple.tuple(params))))
                    .map(JobQueryStore::summaries);
        }
        return found.onFailure(JobQueryStore::timedOut).transform(e -> OjsException.invalidField("q",
                "The search took longer than 5 s; narrow it with a queue, type, state or time range."));
    }

    private static List<JobSummary> summaries(io.vertx.mutiny.sqlclient.RowSet<Row> rows) {
        List<JobSummary> out = new ArrayList<>(rows.rowCount());
        for (Row r : rows) {
            out.add(summary(r));
        }
        return out;
    }

    /**
     * A text search first runs as one statement ({@link #listing}) for at most this long: a word common in every
     * part is found at once in (created_at, id) order (about 300 ms at 1,000,000 seeded jobs, where the part by part
     * search reads 2,000 heavy rows per part: 2.1 s). Past it, the search goes part by part ({@link TextSearch}),
     * which a word missing from a large part needs.
     */
    static final int MERGED_SEARCH_MS = 500;

    /**
     * Matches a text search reads through the trigram indexes before it gives up on them for a part (see
     * {@link TextSearch}).
     */
    static final int SEARCH_CAP = 2000;

    /**
     * Instances' clocks may differ a little: a job another instance created "after" a day ended can have finished in
     * it. A day is skipped only when the page is full of jobs created this much after it.
     */
    static final java.time.Duration CLOCK_MARGIN = java.time.Duration.ofHours(1);

    /** The history's leaf partitions: dead letters, the default one, then the days (job_history_done_YYYYMMDD). */
    static final String HISTORY_PARTS = """
            SELECT c.relname FROM pg_partition_tree('job_history') t JOIN pg_class c ON c.oid = t.relid
            WHERE t.isleaf ORDER BY c.relname = 'job_history_dead' DESC, c.relname = 'job_history_done_default' DESC,
                     c.relname DESC""";

    /** Plans for the capped read: only bitmap scans, i.e. the trigram index (with the others' bitmaps ANDed). */
    static final String BITMAP_ONLY = "SET LOCAL enable_indexscan = off; SET LOCAL enable_seqscan = off";
    /** Plans for the ordered read: an index in (created_at, id) order, stopping at the page size. */
    static final String ORDERED = "SET LOCAL enable_indexscan = on; SET LOCAL enable_seqscan = on;"
            + " SET LOCAL enable_bitmapscan = off";

    /**
     * A text search, part by part: live waiting and active jobs, dead letters, the default partition, then the
     * history's day partitions newest first. One statement over the whole history would merge every partition's
     * (created_at, id) index in order and filter it, which reads a partition without a match to its end (355,000
     * rows and 1.1 s at 1,188,000 jobs of history), or it would sort every match of a common word (239,000 rows,
     * 1.3 s). Instead each part is first read through its trigram index, at most {@link #SEARCH_CAP} matches: fewer
     * than that are all its matches, sorted and cut at the page size. A part with more has them densely, so its
     * (created_at, id) index read in order finds a page soon. Newest first, a day partition holds only jobs created
     * before its day ended: once a page is full of jobs created after that, no older day can change it.
     */
    private static final class TextSearch {
        private final io.vertx.mutiny.sqlclient.SqlConnection conn;
        private final String rest;
        private final Tuple params;
        private final JobState state;
        private final boolean ascending;
        private final int limit;
        private final int cap;
        private final String order;
        private final List<JobSummary> found = new ArrayList<>();

        TextSearch(io.vertx.mutiny.sqlclient.SqlConnection conn, List<String> where, List<Object> params,
                   JobState state, boolean ascending, int limit, int cap) {
            this.conn = conn;
            this.rest = " AND " + String.join(" AND ", where);
            this.params = Tuple.tuple(params);
            this.state = state;
            this.ascending = ascending;
            this.limit = limit;
            this.cap = cap;
            String dir = ascending ? "ASC" : "DESC";
            this.order = " ORDER BY created_at " + dir + ", id " + dir + " LIMIT $" + params.size();
        }

        Uni<List<JobSummary>> run() {
            List<String> live = new ArrayList<>();
            if (state == null || (!state.terminal() && state != JobState.ACTIVE)) {
                live.add("jobs WHERE " + WAITING);
            }
            if (state == null || state == JobState.ACTIVE) {
                live.add("jobs WHERE state = 'active'");
            }
            Uni<Void> done = conn.query("SET LOCAL plan_cache_mode = force_custom_plan").execute().replaceWithVoid();
            for (String part : live) {
                done = done.flatMap(v -> part(part));
            }
            if (state != null && !state.terminal()) {
                return done.map(v -> page());
            }
            return done.flatMap(v -> conn.query(HISTORY_PARTS).execute()).flatMap(rows -> {
                List<String> parts = new ArrayList<>();
                rows.forEach(r -> parts.add(r.getString(0)));
                return history(parts, 0);
            }).map(v -> page());
        }

        private Uni<Void> history(List<String> parts, int i) {
            if (i == parts.size()) {
                return Uni.createFrom().voidItem();
            }
            String name = parts.get(i);
            if (!ascending && pageFull() && name.matches("job_history_done_[0-9]{8}")) {
                java.time.LocalDate day = java.time.LocalDate.parse(name.substring(name.length() - 8),
                        java.time.format.DateTimeFormatter.BASIC_ISO_DATE);
                Instant dayEnd = day.plusDays(1).atStartOfDay(java.time.ZoneOffset.UTC).toInstant();
                if (!found.get(limit - 1).createdAt().isBefore(dayEnd.plus(CLOCK_MARGIN))) {
                    return Uni.createFrom().voidItem(); // this day and every older one hold only older jobs
                }
            }
            return part("\"" + name + "\" WHERE true").flatMap(v -> history(parts, i + 1));
        }

        /** One part: its capped trigram read, then, when it had more matches than the cap, its ordered read. */
        private Uni<Void> part(String from) {
            String capped = "SELECT *, count(*) OVER () AS matches FROM (SELECT " + SUMMARY_COLUMNS + " FROM " + from
                    + rest + " LIMIT " + cap + ") m" + order;
            String ordered = "SELECT " + SUMMARY_COLUMNS + " FROM " + from + rest + order;
            return conn.query(BITMAP_ONLY).execute()
                    .flatMap(v -> conn.preparedQuery(capped).execute(params))
                    .flatMap(rows -> {
                        long matches = rows.size() == 0 ? 0 : rows.iterator().next().getLong("matches");
                        if (matches < cap) {
                            rows.forEach(r -> found.add(summary(r)));
                            sortAndCut();
                            return Uni.createFrom().voidItem();
                        }
                        return conn.query(ORDERED).execute().flatMap(v -> conn.preparedQuery(ordered).execute(params))
                                .invoke(all -> {
                                    all.forEach(r -> found.add(summary(r)));
                                    sortAndCut();
                                }).replaceWithVoid();
                    });
        }

        private boolean pageFull() {
            return found.size() >= limit;
        }

        private void sortAndCut() {
            // ids as PostgreSQL orders uuids: bytewise, which is their lowercase hex text's order
            java.util.Comparator<JobSummary> byKey = java.util.Comparator.comparing(JobSummary::createdAt)
                    .thenComparing(j -> j.id().toString());
            found.sort(ascending ? byKey : byKey.reversed());
            while (found.size() > limit) {
                found.remove(found.size() - 1);
            }
        }

        private List<JobSummary> page() {
            return List.copyOf(found);
        }
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

    private static boolean timedOut(Throwable e) {
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

    static JobSummary summary(Row r) {
        String[] tags = r.getArrayOfStrings("tags");
        return new JobSummary(r.getUUID("id"), r.getString("type"), r.getString("queue"),
                dev.steadfast.domain.JobState.fromWire(r.getString("state")).orElseThrow(), r.getInteger("priority"),
                r.getInteger("attempt"), r.getInteger("max_attempts"), tags == null ? List.of() : Arrays.asList(tags),
                JobRow.instant(r, "created_at"), JobRow.instant(r, "run_at"), r.getBoolean("dead_letter"),
                r.getInteger("run"), r.getString("error_type"), r.getString("error_message"));
    }
}
