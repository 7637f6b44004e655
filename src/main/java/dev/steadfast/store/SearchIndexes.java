package dev.steadfast.store;

import io.vertx.mutiny.sqlclient.Row;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text search's trigram indexes, kept off the write path (V31, docs/decisions/search-indexes-built-when-a-day-closes.md):
 * no PUSH, FETCH, ACK or FAIL writes one. Each history partition (leaf of job_history) gets its own,
 * {@code <leaf>_search_idx}, built by the maintenance task SearchIndexer once the partition no longer takes the hot
 * path's writes ({@link #closed}); the live table and the open day partitions have none, and a search reads their
 * rows in order, a bounded number per page (JobQueryStore).
 */
public final class SearchIndexes {

    private SearchIndexes() {
    }

    /**
     * Every leaf of the history, with whether its search index is there and usable ({@code indexed}), and whether a
     * build of one is under way on it now (any instance's: pg_stat_progress_create_index), so that an index that is
     * not valid yet is told apart from one a failed build left behind.
     */
    public static final String LEAVES = """
            SELECT t.relid::regclass::text AS leaf,
                   EXISTS (SELECT 1 FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                           WHERE x.indrelid = t.relid AND i.relname = c.relname || '_search_idx'
                             AND x.indisvalid AND x.indisready) AS indexed,
                   EXISTS (SELECT 1 FROM pg_class i WHERE i.relname = c.relname || '_search_idx'
                             AND i.relnamespace = c.relnamespace) AS named,
                   EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.relid = t.relid) AS building
            FROM pg_partition_tree('job_history') t JOIN pg_class c ON c.oid = t.relid
            WHERE t.isleaf ORDER BY 1""";

    /** The expression every search reads and every search index holds (V3's function). */
    public static final String EXPRESSION = "job_search_text(args, meta, errors)";

    private static final Pattern DAY = Pattern.compile("job_history_done_(\\d{8})");

    /** A leaf as {@link #LEAVES} reads it. */
    public record Leaf(String name, boolean indexed, boolean named, boolean building) {

        /** An index by the name that is not usable and that no build is working on: a failed build's leftover. */
        public boolean leftover() {
            return named && !indexed && !building;
        }
    }

    /**
     * Whether {@code leaf} no longer takes the hot path's writes on {@code today} (UTC), so that its search index
     * costs nothing per job: a day partition once its day has ended; the dead letters and the default partition
     * always (a job dies or lands there rarely, and dead letters are what an operator searches most).
     */
    public static boolean closed(String leaf, LocalDate today) {
        Matcher m = DAY.matcher(leaf);
        if (!m.matches()) {
            return true;
        }
        return LocalDate.parse(m.group(1), DateTimeFormatter.BASIC_ISO_DATE).isBefore(today);
    }

    /** The rows of {@link #LEAVES}. */
    public static List<Leaf> leaves(Iterable<Row> rows) {
        List<Leaf> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(new Leaf(r.getString("leaf"), r.getBoolean("indexed"), r.getBoolean("named"),
                    r.getBoolean("building")));
        }
        return out;
    }

    /** The name of {@code leaf}'s search index. */
    public static String indexName(String leaf) {
        return leaf + "_search_idx";
    }

    /**
     * Builds {@code leaf}'s search index without blocking its readers or writers (CREATE INDEX CONCURRENTLY: outside
     * any transaction; it waits for transactions older than itself). The name is a leaf's as {@link #LEAVES} read it,
     * quoted.
     */
    public static String create(String leaf) {
        return "CREATE INDEX CONCURRENTLY IF NOT EXISTS " + quote(indexName(leaf)) + " ON " + quote(leaf)
                + " USING gin (" + EXPRESSION + " gin_trgm_ops)";
    }

    /** Drops a failed build's leftover ({@link Leaf#leftover}); run under a lock timeout, in a transaction. */
    public static String drop(String leaf) {
        return "DROP INDEX IF EXISTS " + quote(indexName(leaf));
    }

    private static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
