package dev.steadfast.store;

import io.vertx.mutiny.sqlclient.Row;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The console's search and filter indexes on the history, kept off the write path (V31, V32:
 * docs/decisions/search-indexes-built-when-a-day-closes.md): no PUSH, FETCH, ACK or FAIL writes one. Each history
 * partition (leaf of job_history) gets its own set ({@link Kind}: the text search's trigrams, and the state, queue,
 * type and tag filters' keyset indexes), built by the maintenance task SearchIndexer once the partition no longer
 * takes the hot path's writes ({@link #closed}); the open day partitions have none of them, and a listing that
 * filters or searches reads their rows in order, a bounded number per page (JobQueryStore). The live table has no
 * search index either (its filters keep its own indexes: it is small and every transition writes it anyway).
 */
public final class SearchIndexes {

    private SearchIndexes() {
    }

    /** The expression every text search reads and every trigram index holds (V3's function). */
    public static final String EXPRESSION = "job_search_text(args, meta, errors)";

    /**
     * One index of the set a closed partition gets, named {@code <leaf>_<suffix>}: what the listing's conditions
     * read through it. V18 wrote the keyset ones on the partitioned table, so into every partition on every finish;
     * V32 dropped them there.
     */
    public enum Kind {
        /** Text and args search. */
        SEARCH("search_idx", "USING gin (" + EXPRESSION + " gin_trgm_ops)"),
        /** A state filter, in the listing's order. */
        STATE("state_created_idx", "(state, created_at, id)"),
        /** A queue filter, in the listing's order. */
        QUEUE("queue_created_idx", "(queue, created_at, id)"),
        /** An exact type, in the listing's order; a type prefix turned into its types (JobQueryStore.typesMatching). */
        TYPE("type_created_idx", "(type, created_at, id)"),
        /** A tag. */
        TAGS("tags_idx", "USING gin (tags)");

        private final String suffix;
        private final String definition;

        Kind(String suffix, String definition) {
            this.suffix = suffix;
            this.definition = definition;
        }

        /** The index's name on {@code leaf}. */
        public String name(String leaf) {
            return leaf + "_" + suffix;
        }
    }

    private static final String SUFFIXES = Arrays.stream(Kind.values()).map(k -> "'_" + k.suffix + "'")
            .collect(Collectors.joining(", "));

    /**
     * Every leaf of the history, with whether its whole set of indexes is there and usable ({@code indexed}), those
     * of the set that are there but not usable ({@code invalid}), and whether a build is under way on it now (any
     * instance's: pg_stat_progress_create_index), so that an index that is not valid yet is told apart from one a
     * failed build left behind.
     */
    public static final String LEAVES = """
            SELECT t.relid::regclass::text AS leaf,
                   (SELECT count(*) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                    WHERE x.indrelid = t.relid AND i.relname = ANY(s.names) AND x.indisvalid AND x.indisready)
                     = cardinality(s.names) AS indexed,
                   ARRAY(SELECT i.relname::text FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                         WHERE x.indrelid = t.relid AND i.relname = ANY(s.names)
                           AND NOT (x.indisvalid AND x.indisready) ORDER BY 1) AS invalid,
                   EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.relid = t.relid) AS building
            FROM pg_partition_tree('job_history') t JOIN pg_class c ON c.oid = t.relid,
                 LATERAL (SELECT ARRAY(SELECT c.relname || x FROM unnest(ARRAY[%s]) x)::name[] AS names) s
            WHERE t.isleaf ORDER BY 1""".formatted(SUFFIXES);

    private static final Pattern DAY = Pattern.compile("job_history_done_(\\d{8})");

    /** A leaf as {@link #LEAVES} reads it. */
    public record Leaf(String name, boolean indexed, List<String> invalid, boolean building) {

        public Leaf {
            invalid = List.copyOf(invalid);
        }

        /** Indexes of the set that are not usable and that no build is working on: a failed build's leftovers. */
        public boolean leftover() {
            return !invalid.isEmpty() && !building;
        }
    }

    /**
     * Whether {@code leaf} no longer takes the hot path's writes on {@code today} (UTC), so that its indexes cost
     * nothing per job: a day partition once its day has ended; the dead letters and the default partition always (a
     * job dies or lands there rarely, and dead letters are what an operator searches most).
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
            out.add(new Leaf(r.getString("leaf"), r.getBoolean("indexed"), Arrays.asList(r.getArrayOfStrings("invalid")),
                    r.getBoolean("building")));
        }
        return out;
    }

    /**
     * Builds {@code leaf}'s indexes, one statement each, without blocking its readers or writers (CREATE INDEX
     * CONCURRENTLY: outside any transaction; it waits for transactions older than itself); one already there is
     * skipped. The name is a leaf's as {@link #LEAVES} read it, quoted.
     */
    public static List<String> create(String leaf) {
        return Arrays.stream(Kind.values()).map(k -> "CREATE INDEX CONCURRENTLY IF NOT EXISTS " + quote(k.name(leaf))
                + " ON " + quote(leaf) + " " + k.definition).toList();
    }

    /** Drops a failed build's leftovers ({@link Leaf#leftover}); run under a lock timeout, in a transaction. */
    public static String drop(Leaf leaf) {
        return "DROP INDEX IF EXISTS " + leaf.invalid().stream().map(SearchIndexes::quote)
                .collect(Collectors.joining(", "));
    }

    private static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
