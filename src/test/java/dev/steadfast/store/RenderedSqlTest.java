package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.JobState;
import dev.steadfast.model.BulkScope;
import dev.steadfast.model.JobFilter;
import dev.steadfast.store.deadletters.DeadLetterShapes;
import dev.steadfast.store.maintenance.PartitionDropShapes;
import dev.steadfast.store.workflows.WorkflowListShapes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The SQL that runs, visible whole: every named statement of store/ (each static String constant that is a
 * statement, and each statement a builder makes for a given count) rendered as PostgreSQL receives it into
 * docs/internals/sql/, one file per class, and the page docs/internals/sql/README.md listing every database operation:
 * its name, its file, the store methods that run it and the packages that call those. The test fails when a rendering
 * differs from its file, so a change to a statement shows in review as a change to plain SQL.
 *
 * <p>After changing a statement: {@code ./mvnw test -Dtest=RenderedSqlTest -Dsteadfast.sql.render=write}, then read
 * the diff of docs/internals/sql/ and commit it with the change.
 */
class RenderedSqlTest {

    private static final Path SOURCES = Path.of("src/main/java");
    private static final Path DOCS = Path.of("docs/internals/sql");
    private static final String STORE = "dev/steadfast/store";

    /**
     * Statements built per call: from a count written into their text (JobSql.claimOne, claimFrom and claimQueues: one text per
     * count, so PostgreSQL keeps one generic plan for each), rendered for the count a worker asks most, 10; and from a
     * request's filter (the console's listings, searches, counts and bulk actions), rendered once for each branch of
     * their builders that changes the statement's shape, named for that shape.
     */
    private static Map<String, String> variants() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("JobSql.claimOne(10)", JobSql.claimOne(10));
        v.put("JobSql.claimFrom(10)", JobSql.claimFrom(10));
        v.put("JobSql.claimQueues(10)", JobSql.claimQueues(10));
        // the console's plain listings (no search): newest first, then a page further on; by state; by queue and type
        v.put("JobQueryStore.plainListing(every job, newest first)",
                JobQueryStore.plainListing(JobFilter.ALL, false, null, null, 50, new ArrayList<>()));
        v.put("JobQueryStore.plainListing(every job, the next page)",
                JobQueryStore.plainListing(JobFilter.ALL, false, AT, ID, 50, new ArrayList<>()));
        v.put("JobQueryStore.plainListing(state available)", JobQueryStore.plainListing(
                filter(JobState.AVAILABLE, null, null, false, null, null), false, null, null, 50, new ArrayList<>()));
        v.put("JobQueryStore.plainListing(queue and type, oldest first)", JobQueryStore.plainListing(
                filter(null, "mail", "mail.send", false, null, null), true, null, null, 50, new ArrayList<>()));
        searches(v);
        bulk(v);
        v.put("SearchIndexes.create(a closed day's partition)",
                String.join(";\n", SearchIndexes.create("job_history_done_20261128")));
        v.put("SearchIndexes.drop(a failed build's leftovers)", SearchIndexes.drop(new SearchIndexes.Leaf(
                "job_history_done_20261128", false, List.of("job_history_done_20261128_search_idx"), false)));
        v.putAll(WorkflowListShapes.rendered(AT, ID));
        v.putAll(DeadLetterShapes.rendered(AT, ID));
        v.putAll(PartitionDropShapes.rendered());
        return v;
    }

    private static final Instant AT = Instant.parse("2026-11-29T12:00:00Z");
    private static final UUID ID = UUID.fromString("019539a4-b68c-7def-8000-ffeeddccbbaa");

    /**
     * The history's leaves a search reads one by one, as on 2026-11-29: the dead letters and yesterday's partition
     * with their search indexes, today's without. A database keeping more days has one more part per day, read as
     * yesterday's is.
     */
    private static final List<SearchIndexes.Leaf> LEAVES = List.of(leaf("job_history_dead", true),
            leaf("job_history_done_20261128", true), leaf("job_history_done_20261129", false));

    private static SearchIndexes.Leaf leaf(String name, boolean indexed) {
        return new SearchIndexes.Leaf(name, indexed, List.of(), false);
    }

    private static JobFilter filter(JobState state, String queue, String type, boolean typePrefix, String tag,
                                    String text) {
        return new JobFilter(state, queue, type, typePrefix, tag, null, null, text);
    }

    private static final JobFilter TEXT = filter(null, null, null, false, null, "invoice");

    /**
     * The console's searches, and filters a closed day's partition has its own index for (JobQueryStore.list reads
     * those partition by partition): where the parts it reads in order stop (reach), and the listing, over
     * {@link #LEAVES}.
     */
    private static void searches(Map<String, String> v) {
        JobFilter discarded = filter(JobState.DISCARDED, null, null, false, null, "invoice");
        JobFilter queue = filter(null, "mail", null, false, null, null);
        v.put("JobQueryStore.reach(text search, newest first)", reach(TEXT, false, null));
        v.put("JobQueryStore.reach(text search, state discarded, oldest first, the next page)",
                reach(discarded, true, AT));
        v.put("JobQueryStore.reach(queue, no search)", reach(queue, false, null));
        v.put("JobQueryStore.searchListing(text search, newest first)", search(TEXT, false, null, null));
        v.put("JobQueryStore.searchListing(text search, stopped where its reach was)",
                search(TEXT, false, null, new JobQueryStore.Reach(AT, ID)));
        v.put("JobQueryStore.searchListing(text search, state discarded, oldest first, the next page)",
                search(discarded, true, AT, null));
        v.put("JobQueryStore.searchListing(text search, state active)",
                search(filter(JobState.ACTIVE, null, null, false, null, "invoice"), false, null, null));
        v.put("JobQueryStore.searchListing(tag, state available)",
                search(filter(JobState.AVAILABLE, null, null, false, "urgent", null), false, null, null));
        v.put("JobQueryStore.searchListing(type prefix)",
                search(filter(null, null, "mail.", true, null, null), false, null, null));
        v.put("JobQueryStore.searchListing(args value)", search(new JobFilter(null, null, null, false, null, null, null,
                null, List.of(new JobFilter.ArgsEquals(List.of("order", "id"), "\"A-1234567\""))), false, null, null));
        v.put("JobQueryStore.searchListing(queue, no search)", search(queue, false, null, null));
    }

    private static String reach(JobFilter f, boolean ascending, Instant afterAt) {
        return JobQueryStore.reach(f, JobQueryStore.parts(f.state(), LEAVES), ascending, afterAt,
                afterAt == null ? null : ID, JobQueryStore.SCAN_ROWS, new ArrayList<>());
    }

    private static String search(JobFilter f, boolean ascending, Instant afterAt, JobQueryStore.Reach stop) {
        return JobQueryStore.searchListing(f, JobQueryStore.parts(f.state(), LEAVES), ascending, afterAt,
                afterAt == null ? null : ID, stop, 50, JobQueryStore.SCAN_ROWS, new ArrayList<>());
    }

    /**
     * The jobs list's bulk actions: the confirmation's count (plain, and partition by partition over {@link #LEAVES}),
     * and each action's batch on a filter, once on selected ids, once with every condition a filter can add.
     */
    private static void bulk(Map<String, String> v) {
        String[] live = {"scheduled", "available", "retryable"};
        String[] finished = {"completed", "cancelled", "discarded"};
        BulkScope ids = BulkScope.of(List.of(ID));
        BulkScope queue = BulkScope.of(filter(null, "mail", "mail.send", false, null, null));
        JobFilter every = new JobFilter(null, "mail", "mail.", true, "urgent", AT.minusSeconds(86_400), AT, "invoice",
                List.of(new JobFilter.ArgsEquals(List.of("order", "id"), "\"A-1234567\"")));
        v.put("JobBulkStore.countMatching(selected ids)",
                JobBulkStore.countMatching(ids, live, finished, new ArrayList<>()));
        v.put("JobBulkStore.countMatching(time range)", JobBulkStore.countMatching(BulkScope.of(new JobFilter(null,
                null, null, false, null, AT.minusSeconds(86_400), AT, null)), live, finished, new ArrayList<>()));
        v.put("JobBulkStore.countMatchingByPart(text search)",
                JobBulkStore.countMatchingByPart(TEXT, live, finished, LEAVES, new ArrayList<>()));
        v.put("JobBulkStore.countMatchingByPart(queue and type)", JobBulkStore.countMatchingByPart(queue.filter(),
                live, finished, LEAVES, new ArrayList<>()));
        v.put("JobBulkStore.batch(CANCEL_BATCH, selected ids)",
                JobBulkStore.batch(JobBulkStore.CANCEL_BATCH, ids, live, 500, AT, new ArrayList<>()));
        v.put("JobBulkStore.batch(CANCEL_BATCH, queue and type)",
                JobBulkStore.batch(JobBulkStore.CANCEL_BATCH, queue, live, 500, AT, new ArrayList<>()));
        v.put("JobBulkStore.batch(CANCEL_BATCH, queue, type prefix, tag, time range, text search and args value)",
                JobBulkStore.batch(JobBulkStore.CANCEL_BATCH, BulkScope.of(every), live, 500, AT, new ArrayList<>()));
        v.put("JobBulkStore.batch(RETRY_NOW_BATCH, queue and type)",
                JobBulkStore.batch(JobBulkStore.RETRY_NOW_BATCH, queue, live, 500, AT, new ArrayList<>()));
        v.put("JobBulkStore.batch(DELETE_LIVE_BATCH, queue and type)",
                JobBulkStore.batch(JobBulkStore.DELETE_LIVE_BATCH, queue, live, 500, null, new ArrayList<>()));
        v.put("JobBulkStore.batch(DELETE_FINISHED_BATCH, queue and type)",
                JobBulkStore.batch(JobBulkStore.DELETE_FINISHED_BATCH, queue, finished, 500, null, new ArrayList<>()));
        v.put("JobBulkStore.batch(FINISHED_BATCH, queue and type)",
                JobBulkStore.batch(JobBulkStore.FINISHED_BATCH, queue, finished, 500, false, new ArrayList<>()));
    }

    @Test
    void everyStatementIsRenderedInDocs() throws Exception {
        Map<String, Map<String, String>> byClass = new TreeMap<>();
        for (StatementCacheTest.StoreString f : StatementCacheTest.storeStrings()) {
            if (isStatement(f.value())) {
                String cls = f.owner().getSimpleName();
                byClass.computeIfAbsent(cls, k -> new LinkedHashMap<>()).put(cls + "." + f.field(), f.value());
            }
        }
        variants().forEach((k, sql) -> byClass.computeIfAbsent(k.substring(0, k.indexOf('.')),
                c -> new LinkedHashMap<>()).put(k, sql));
        int statements = byClass.values().stream().mapToInt(Map::size).sum();
        assertTrue(statements > 150, "found only " + statements + " statements under target/classes");

        Map<String, String> files = new TreeMap<>();
        byClass.forEach((cls, sqls) -> files.put(cls + ".sql", render(cls, sqls)));
        files.put("README.md", operations(byClass));

        if ("write".equals(System.getProperty("steadfast.sql.render"))) {
            Files.createDirectories(DOCS);
            try (Stream<Path> old = Files.list(DOCS)) {
                for (Path p : old.toList()) {
                    if (!files.containsKey(p.getFileName().toString())) {
                        Files.delete(p);
                    }
                }
            }
            for (var e : files.entrySet()) {
                Files.writeString(DOCS.resolve(e.getKey()), e.getValue());
            }
            return;
        }
        List<String> stale = new ArrayList<>();
        for (var e : files.entrySet()) {
            Path p = DOCS.resolve(e.getKey());
            if (!Files.exists(p) || !Files.readString(p).equals(e.getValue())) {
                stale.add(e.getKey());
            }
        }
        try (Stream<Path> present = Files.exists(DOCS) ? Files.list(DOCS) : Stream.empty()) {
            present.map(p -> p.getFileName().toString()).filter(n -> !files.containsKey(n))
                    .forEach(n -> stale.add(n + " (no such class or page any more)"));
        }
        assertEquals(List.of(), stale, "the rendered SQL under " + DOCS + " differs from the code; render it again with"
                + " ./mvnw test -Dtest=RenderedSqlTest -Dsteadfast.sql.render=write and commit the diff with the change");
    }

    private static String render(String cls, Map<String, String> sqls) {
        StringBuilder b = new StringBuilder("-- The statements of store ").append(cls)
                .append(", rendered by RenderedSqlTest from the code: do not edit by hand.\n");
        sqls.forEach((name, sql) -> b.append("\n-- ").append(name).append('\n').append(normalise(sql)).append(";\n"));
        return b.toString();
    }

    /** The text as sent, less trailing blanks per line and the blank lines a text block leaves. */
    private static String normalise(String sql) {
        List<String> lines = new ArrayList<>();
        for (String line : sql.strip().split("\n")) {
            String l = line.stripTrailing();
            if (!l.isEmpty()) {
                lines.add(l);
            }
        }
        int indent = lines.stream().skip(1).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder b = new StringBuilder(lines.get(0).strip());
        for (String l : lines.subList(1, lines.size())) {
            b.append('\n').append(l.substring(Math.min(indent, l.length() - l.stripLeading().length())));
        }
        return b.toString();
    }

    // ---- the operations page

    private static final Pattern MEMBER = Pattern.compile(
            "^    (?!return|throw|if|for|while|switch|case|\\*|/|@)(?:[\\w<>\\[\\],.? ]+?\\s)?(\\w+)\\s*(\\(|=)");

    /** Every statement with its file, the store members that use it and the packages calling those members. */
    private static String operations(Map<String, Map<String, String>> byClass) throws IOException {
        Map<String, String> storeSources = sources(SOURCES.resolve(STORE));
        Map<String, String> otherSources = new TreeMap<>(sources(SOURCES.resolve("dev/steadfast")));
        otherSources.keySet().removeIf(k -> k.startsWith(STORE + "/"));
        StringBuilder b = new StringBuilder("""
                # Every database operation

                Generated by `RenderedSqlTest` from the code (do not edit by hand): every named statement of `store/`, the
                only package that holds SQL, with the file it is rendered in (as PostgreSQL receives it), the store members
                that run it, and the packages outside `store/` that call those members. After changing a statement, render
                it again (`./mvnw test -Dtest=RenderedSqlTest -Dsteadfast.sql.render=write`) and commit the diff with the
                change; the test fails until then.

                A statement a builder assembles per call is rendered once for each branch of the builder that changes
                its shape, named for that shape: the claims for a count of 10 (`JobSql.claimOne`, `claimFrom`, `claimQueues`); the
                console's job listings, plain (`JobQueryStore.plainListing`) and read partition by partition
                (`JobQueryStore.reach` and `searchListing`, over the history's partitions as on one day: the dead letters
                and yesterday's with their search indexes, today's without; a database keeping more days has one more
                part per day); the bulk actions' counts and batches (`JobBulkStore.countMatching`,
                `countMatchingByPart`, `batch`); the workflows listing (`WorkflowListSql.list`, `count`); the dead
                letter queue's listing and condition (`DeadLetterStore.listing`, `where`: HQL, which Hibernate turns
                into SQL); the search indexes of a closed day's partition (`SearchIndexes.create`, `drop`); an old
                day's partition the pruner counts and drops (`MaintenanceSql.countPartition`, `dropPartition`). Not
                rendered here: the Panache entities' other queries.

                """);
        int total = byClass.values().stream().mapToInt(Map::size).sum();
        b.append(total).append(" statements in ").append(byClass.size()).append(" classes.\n");
        for (var cls : byClass.entrySet()) {
            b.append("\n## ").append(cls.getKey()).append(" ([").append(cls.getKey()).append(".sql](")
                    .append(cls.getKey()).append(".sql))\n\n| statement | run by | called from |\n| --- | --- | --- |\n");
            for (String name : cls.getValue().keySet()) {
                String constant = name.substring(name.indexOf('.') + 1);
                TreeSet<String> users = new TreeSet<>();
                TreeSet<String> callers = new TreeSet<>();
                // a constant is named; a builder's statement is made by calling it
                String called = constant.contains("(") ? constant.substring(0, constant.indexOf('(')) : null;
                for (var src : storeSources.entrySet()) {
                    String owner = simpleName(src.getKey());
                    String ref = called != null ? (owner.equals(cls.getKey()) ? "\\b" : "\\b" + cls.getKey() + "\\.")
                            + called + "\\(" : (owner.equals(cls.getKey()) ? "\\b" : "\\b" + cls.getKey() + "\\.")
                            + constant + "\\b";
                    String self = owner.equals(cls.getKey()) ? (called != null ? called : constant) : null;
                    for (String member : membersReferencing(src.getValue(), Pattern.compile(ref), self)) {
                        users.add(owner + "." + member);
                        callers.addAll(callersOf(owner, member, storeSources, otherSources, 3));
                    }
                }
                b.append("| `").append(constant).append("` | ").append(users.isEmpty() ? "-" : String.join(", ",
                        users)).append(" | ").append(callers.isEmpty() ? "-" : String.join(", ", callers))
                        .append(" |\n");
            }
        }
        return b.toString();
    }

    /**
     * Each code line of a source (comments left out, and its strings, so that the SQL in them, {@code count(*)} say, is
     * not taken for a call) with the member it belongs to, read once per source.
     */
    private static final Map<String, List<String[]>> LINES = new java.util.IdentityHashMap<>();

    private static List<String[]> lines(String source) {
        return LINES.computeIfAbsent(source, src -> {
            List<String[]> out = new ArrayList<>();
            String current = null;
            boolean[] textBlock = {false};
            for (String line : src.split("\n")) {
                if (line.startsWith("    ") && !line.startsWith("     ")) {
                    Matcher m = MEMBER.matcher(line);
                    if (m.find()) {
                        current = m.group(1);
                    }
                }
                String code = line.strip();
                if (current != null && !code.startsWith("*") && !code.startsWith("/*") && !code.startsWith("//")) {
                    out.add(new String[] {current, withoutStrings(line, textBlock)});
                }
            }
            return out;
        });
    }

    /** {@code line} less its string and character literals and any text block ({@code textBlock[0]}: open). */
    private static String withoutStrings(String line, boolean[] textBlock) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (line.startsWith("\"\"\"", i)) {
                textBlock[0] = !textBlock[0];
                i += 3;
            } else if (textBlock[0]) {
                i++;
            } else if (c == '"' || c == '\'') {
                for (i++; i < line.length() && line.charAt(i) != c; i++) {
                    i += line.charAt(i) == '\\' ? 1 : 0;
                }
                i++;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The members (methods, or constants composed from it) of a source whose body references {@code ref}. */
    private static List<String> membersReferencing(String source, Pattern ref, String self) {
        List<String> out = new ArrayList<>();
        for (String[] l : lines(source)) {
            if (!l[0].equals(self) && !out.contains(l[0]) && ref.matcher(l[1]).find()) {
                out.add(l[0]);
            }
        }
        return out;
    }

    /**
     * The packages (outside store/) that name store class {@code owner} and call its member {@code member}; for a
     * member only the store calls (a private step, a composed constant), the callers of the store members that use
     * it, up to {@code depth} steps.
     */
    private static final Map<String, TreeSet<String>> CALLERS = new java.util.HashMap<>();

    private static TreeSet<String> callersOf(String owner, String member, Map<String, String> store,
                                             Map<String, String> others, int depth) {
        String key = owner + "." + member + "/" + depth;
        TreeSet<String> known = CALLERS.get(key);
        if (known != null) {
            return known;
        }
        TreeSet<String> out = new TreeSet<>();
        CALLERS.put(key, out); // a member reached again while its callers are being found adds nothing new
        for (var e : others.entrySet()) {
            Set<String>[] words = words(e.getValue());
            if (words[0].contains(owner) && words[1].contains(member)) {
                out.add(e.getKey().substring("dev/steadfast/".length(), e.getKey().lastIndexOf('/')).replace('/', '.'));
            }
        }
        if (out.isEmpty() && depth > 0) {
            for (var src : store.entrySet()) {
                String user = simpleName(src.getKey());
                Pattern ref = Pattern.compile(user.equals(owner) ? "(^|[^.\\w])" + member + "\\b"
                        : "\\b" + owner + "\\." + member + "\\b");
                for (String m : membersReferencing(src.getValue(), ref, user.equals(owner) ? member : null)) {
                    out.addAll(callersOf(user, m, store, others, depth - 1));
                }
            }
        }
        return out;
    }

    private static final Map<String, Set<String>[]> WORDS = new java.util.IdentityHashMap<>();
    private static final Pattern WORD = Pattern.compile("\\b[A-Za-z_]\\w*\\b");
    private static final Pattern CALLED = Pattern.compile("(?:\\.(\\w+)\\(|::(\\w+)\\b)");

    /** A source's words and the members it calls ({@code .name(} or {@code ::name}), read once per source. */
    @SuppressWarnings("unchecked")
    private static Set<String>[] words(String source) {
        return WORDS.computeIfAbsent(source, src -> {
            Set<String> words = new java.util.HashSet<>();
            Set<String> called = new java.util.HashSet<>();
            Matcher w = WORD.matcher(src);
            while (w.find()) {
                words.add(w.group());
            }
            Matcher c = CALLED.matcher(src);
            while (c.find()) {
                called.add(c.group(1) != null ? c.group(1) : c.group(2));
            }
            return new Set[] {words, called};
        });
    }

    private static String simpleName(String path) {
        return path.substring(path.lastIndexOf('/') + 1, path.length() - ".java".length());
    }

    /** The Java sources under {@code root}, by their path below src/main/java. */
    private static Map<String, String> sources(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(p -> p.toString().endsWith(".java")).toList()) {
                out.put(SOURCES.relativize(p).toString(), Files.readString(p));
            }
        }
        return out;
    }

    private static final Pattern STATEMENT = Pattern.compile(
            "(?i)^(SELECT|WITH|INSERT|UPDATE|DELETE|TRUNCATE|LISTEN|SET|CREATE|DROP|LOCK|ANALYZE|VACUUM)\\b");

    private static boolean isStatement(String s) {
        return STATEMENT.matcher(s.stripLeading()).find();
    }
}
