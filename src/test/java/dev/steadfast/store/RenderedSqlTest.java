package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.JobState;
import dev.steadfast.model.JobFilter;
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
     * Statements built per call from a count written into their text (JobSql.claimOne and claimFrom: one text per
     * count, so PostgreSQL keeps one generic plan for each); rendered for the count a worker asks most, 10.
     */
    private static Map<String, String> variants() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("JobSql.claimOne(10)", JobSql.claimOne(10));
        v.put("JobSql.claimFrom(10)", JobSql.claimFrom(10));
        // the console's plain listings (no search): newest first, then a page further on; by state; by queue and type
        Instant at = Instant.parse("2026-11-29T12:00:00Z");
        UUID id = UUID.fromString("019539a4-b68c-7def-8000-ffeeddccbbaa");
        v.put("JobQueryStore.plainListing(every job, newest first)",
                JobQueryStore.plainListing(JobFilter.ALL, false, null, null, 50, new ArrayList<>()));
        v.put("JobQueryStore.plainListing(every job, the next page)",
                JobQueryStore.plainListing(JobFilter.ALL, false, at, id, 50, new ArrayList<>()));
        v.put("JobQueryStore.plainListing(state available)", JobQueryStore.plainListing(
                new JobFilter(JobState.AVAILABLE, null, null, false, null, null, null, null), false, null, null, 50,
                new ArrayList<>()));
        v.put("JobQueryStore.plainListing(queue and type, oldest first)", JobQueryStore.plainListing(
                new JobFilter(null, "mail", "mail.send", false, null, null, null, null), true, null, null, 50,
                new ArrayList<>()));
        return v;
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
        variants().forEach((k, sql) -> byClass.get(k.substring(0, k.indexOf('.'))).put(k, sql));
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

                The console's plain job listings (no search) are rendered in four shapes (`JobQueryStore.plainListing`).
                Not rendered here: its searches (read partition by partition, from the partitions the database holds),
                bulk actions and other listings (`JobBulkStore`, `WorkflowListSql.where`, `DeadLetterStore.where`),
                which are assembled per request from the filter's conditions (their fragments are the constants of
                those classes), and the Panache entities' queries.

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
                    for (String member : membersReferencing(src.getValue(), Pattern.compile(ref),
                            called != null ? called : constant)) {
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

    /** Each code line of a source (comments left out) with the member it belongs to, read once per source. */
    private static final Map<String, List<String[]>> LINES = new java.util.IdentityHashMap<>();

    private static List<String[]> lines(String source) {
        return LINES.computeIfAbsent(source, src -> {
            List<String[]> out = new ArrayList<>();
            String current = null;
            for (String line : src.split("\n")) {
                if (line.startsWith("    ") && !line.startsWith("     ")) {
                    Matcher m = MEMBER.matcher(line);
                    if (m.find()) {
                        current = m.group(1);
                    }
                }
                String code = line.strip();
                if (current != null && !code.startsWith("*") && !code.startsWith("/*") && !code.startsWith("//")) {
                    out.add(new String[] {current, line});
                }
            }
            return out;
        });
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
                for (String m : membersReferencing(src.getValue(), ref, member)) {
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
