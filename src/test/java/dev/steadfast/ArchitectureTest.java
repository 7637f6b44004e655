package dev.steadfast;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * House rules checked on the sources: the top-level packages (features over domain/, model/ and store/) depend on
 * each other without cycles and hold at most 30 files each; only store/ talks to the database, and no resource names
 * a store type; the domain and the model are pure Java; connections outside the
 * pool come from one factory; console templates never switch escaping off and every POST form in them carries the CSRF
 * field; a top-level type is public only when another package names it.
 */
class ArchitectureTest {

    static final Path MAIN = Path.of("src/main/java/dev/steadfast");
    static final Path TEST = Path.of("src/test/java/dev/steadfast");
    static final Path TEMPLATES = Path.of("src/main/resources/templates");

    private static List<Path> files(Path root, String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
        }
    }

    /** Which top-level package each top-level package refers to (imports and fully qualified names). */
    static Map<String, Set<String>> packageGraph() throws IOException {
        Pattern ref = Pattern.compile("\\bdev\\.steadfast\\.([a-z]\\w*)\\.");
        Map<String, Set<String>> g = new TreeMap<>();
        for (Path f : files(MAIN, ".java")) {
            Path rel = MAIN.relativize(f);
            if (rel.getNameCount() < 2) {
                continue; // Main
            }
            String from = rel.getName(0).toString();
            String src = withoutCommentsAndLiterals(Files.readString(f)).replaceFirst("package [\\w.]+;", "");
            Set<String> to = g.computeIfAbsent(from, k -> new TreeSet<>());
            Matcher m = ref.matcher(src);
            while (m.find()) {
                if (!m.group(1).equals(from)) {
                    to.add(m.group(1));
                }
            }
        }
        return g;
    }

    @Test
    void featuresDependOnEachOtherWithoutCycles() throws IOException {
        Map<String, Set<String>> g = packageGraph();
        List<String> cycles = new ArrayList<>();
        for (String start : g.keySet()) {
            // a path from a package's dependencies back to itself is a cycle
            Set<String> seen = new HashSet<>();
            List<String> todo = new ArrayList<>(g.get(start));
            while (!todo.isEmpty()) {
                String p = todo.remove(todo.size() - 1);
                if (p.equals(start)) {
                    cycles.add(start + " reaches itself through " + g.get(start));
                    break;
                }
                if (seen.add(p)) {
                    todo.addAll(g.getOrDefault(p, Set.of()));
                }
            }
        }
        assertEquals(List.of(), cycles, "package graph: " + g);
    }

    static final Path ARCHITECTURE_PAGE = Path.of("docs/internals/architecture.md");

    /**
     * The source layout of docs/internals/architecture.md, in its order: each top-level package of the code, and each
     * package inside one, as the page lists them ({@code name/} at the start of an entry, {@code (+ a, b)} for the
     * packages inside).
     */
    static Map<String, List<String>> layoutOnThePage() throws IOException {
        String page = Files.readString(ARCHITECTURE_PAGE);
        String block = page.substring(page.indexOf("src/main/java/dev/steadfast/"));
        block = block.substring(0, block.indexOf("\nsrc/main/proto"));
        Map<String, List<String>> out = new java.util.LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^  ([a-z]\\w*)/(?: \\(\\+ ([a-z, ]+)\\))?").matcher(block);
        while (m.find()) {
            out.put(m.group(1), m.group(2) == null ? List.of() : List.of(m.group(2).split(",\\s*")));
        }
        return out;
    }

    /**
     * The page names every package of the code, and the order it gives is the dependency order the code keeps: a
     * top-level package uses only those listed before it (the console, listed last, may use any).
     */
    @Test
    void theArchitecturePageListsEveryPackageInTheOrderTheCodeKeeps() throws IOException {
        Map<String, List<String>> page = layoutOnThePage();
        Map<String, Set<String>> code = new TreeMap<>();
        for (Path f : files(MAIN, ".java")) {
            Path rel = MAIN.relativize(f);
            if (rel.getNameCount() >= 2) {
                Set<String> inside = code.computeIfAbsent(rel.getName(0).toString(), k -> new TreeSet<>());
                if (rel.getNameCount() >= 3) {
                    inside.add(rel.getName(1).toString());
                }
            }
        }
        assertEquals(code.keySet(), new TreeSet<>(page.keySet()), "the top-level packages on " + ARCHITECTURE_PAGE);
        for (var e : code.entrySet()) {
            assertEquals(e.getValue(), new TreeSet<>(page.get(e.getKey())),
                    "the packages inside " + e.getKey() + "/ on " + ARCHITECTURE_PAGE);
        }
        List<String> order = new ArrayList<>(page.keySet());
        Map<String, Set<String>> g = packageGraph();
        List<String> backwards = new ArrayList<>();
        for (String from : order) {
            if (from.equals("console")) {
                continue;
            }
            for (String to : g.getOrDefault(from, Set.of())) {
                if (order.indexOf(to) > order.indexOf(from)) {
                    backwards.add(from + " -> " + to);
                }
            }
        }
        assertEquals(List.of(), backwards, "uses of a package listed later on " + ARCHITECTURE_PAGE);
    }

    @Test
    void theCoreDependsOnNoFeature() throws IOException {
        Map<String, Set<String>> g = packageGraph();
        assertEquals(Set.of(), g.get("domain"));
        assertEquals(Set.of("domain"), g.get("model"));
        assertEquals(Set.of("domain", "model"), g.get("store"));
    }

    /**
     * A resource (a class with {@code @Path}) reaches the database only through its feature's services: it names no
     * type of store/, by import or by qualified name. The records a store answers or takes live in model/.
     */
    @Test
    void resourcesNeverUseTheStore() throws IOException {
        List<String> offenders = new ArrayList<>();
        Pattern store = Pattern.compile("\\bdev\\.steadfast\\.store\\.[\\w.]+");
        for (Path f : files(MAIN, ".java")) {
            String src = withoutCommentsAndLiterals(Files.readString(f));
            if (!src.contains("@Path(")) {
                continue;
            }
            Matcher m = store.matcher(src);
            while (m.find()) {
                offenders.add(MAIN.relativize(f) + ": " + m.group());
            }
        }
        assertEquals(List.of(), offenders);
    }

    @Test
    void noPackageHoldsMoreThanThirtyFiles() throws IOException {
        Map<Path, Integer> sizes = new TreeMap<>();
        for (Path f : files(MAIN, ".java")) {
            sizes.merge(f.getParent(), 1, Integer::sum);
        }
        List<String> offenders = new ArrayList<>();
        sizes.forEach((dir, n) -> {
            if (n > 30) {
                offenders.add(dir + ": " + n);
            }
        });
        assertEquals(List.of(), offenders);
    }

    @Test
    void mainCodeNeverImportsTestCode() throws IOException {
        List<String> offenders = new ArrayList<>();
        for (Path f : files(MAIN, ".java")) {
            String src = Files.readString(f);
            if (src.contains("dev.steadfast.testsupport") || src.contains("dev.steadfast.packaged")) {
                offenders.add(f.toString());
            }
        }
        assertEquals(List.of(), offenders);
    }

    @Test
    void onlyTheStoreTalksToTheDatabase() throws IOException {
        List<String> offenders = new ArrayList<>();
        for (Path f : files(MAIN, ".java")) {
            if (f.startsWith(MAIN.resolve("store"))) {
                continue;
            }
            String src = Files.readString(f);
            if (src.contains("io.vertx.mutiny.sqlclient") || src.contains("io.vertx.sqlclient.Pool")
                    || src.contains("preparedQuery(")) {
                offenders.add(f.toString());
            }
        }
        assertEquals(List.of(), offenders);
    }

    /**
     * A connection outside the pool comes from {@code store.SessionConnections}: the client's own
     * {@code PgConnection.connect} and {@code PgSubscriber} build a network client per connect, which a failed connect
     * leaves to the garbage collector to close (after shutdown, as an ERROR).
     */
    @Test
    void sessionConnectionsComeFromOneFactory() throws IOException {
        List<String> offenders = new ArrayList<>();
        for (Path f : files(MAIN, ".java")) {
            String src = withoutCommentsAndLiterals(Files.readString(f));
            if (src.contains("PgConnection.connect(") || src.contains("PgSubscriber")) {
                offenders.add(f.toString());
            }
        }
        assertEquals(List.of(), offenders);
    }

    @Test
    void theDomainAndTheModelImportOnlyJava() throws IOException {
        List<String> offenders = new ArrayList<>();
        Pattern imp = Pattern.compile("^import (static )?([\\w.]+)", Pattern.MULTILINE);
        // the domain, and the records the store answers and takes (plain data over the domain's types)
        List<Path> pure = new ArrayList<>(files(MAIN.resolve("domain"), ".java"));
        pure.addAll(files(MAIN.resolve("model"), ".java"));
        for (Path f : pure) {
            Matcher m = imp.matcher(Files.readString(f));
            while (m.find()) {
                String name = m.group(2);
                if (!name.startsWith("java.") && !name.startsWith("dev.steadfast.domain")) {
                    offenders.add(f.getFileName() + ": " + name);
                }
            }
        }
        assertEquals(List.of(), offenders);
    }

    @Test
    void templatesEscapeEverythingAndEveryPostFormCarriesTheCsrfToken() throws IOException {
        List<String> offenders = new ArrayList<>();
        Pattern form = Pattern.compile("<form[^>]*method=\"post\"[^>]*>(.*?)</form>", Pattern.DOTALL);
        for (Path f : files(TEMPLATES, ".html")) {
            String html = Files.readString(f);
            if (html.contains(".raw") || html.contains("|raw") || html.contains(".safe") || html.contains("{|")) {
                offenders.add(f + ": unescaped output");
            }
            Matcher m = form.matcher(html);
            while (m.find()) {
                if (!m.group(1).contains("name=\"_csrf\" value=\"{chrome.csrf}\"")) {
                    offenders.add(f + ": POST form without _csrf");
                }
            }
        }
        assertEquals(List.of(), offenders);
    }

    /**
     * The public top-level types of src/main that no other package names, each with the reason it stays public: a
     * framework needs it public, or another package uses it without writing its name (an accessor's answer handed on,
     * a lambda's parameter), which the compiler refuses for a package-private type all the same.
     */
    static final Map<String, String> PUBLIC_UNNAMED = Map.of(
            "dev.steadfast.Main", "the application's entry point (@QuarkusMain), started by the launcher",
            "dev.steadfast.domain.retry.DelayRange", "console/ reads it from ScheduleRow.range()",
            "dev.steadfast.cron.CronCommand", "grpc/ hands CronResource.command's answer to CronService.register",
            "dev.steadfast.workflows.WorkflowCommand",
            "grpc/ hands WorkflowResource.command's answer to WorkflowService.create",
            "dev.steadfast.queues.RateLimitStatus",
            "jobs/ hands RateLimits.inspect's answer to RateLimitResource.withHeaders");

    /** A source file read for names: its package, and its code without comments, string and character literals. */
    record Source(String pkg, String code) {

        static Source read(Path root, Path file) throws IOException {
            String pkg = ("dev.steadfast." + root.relativize(file.getParent())).replace('/', '.')
                    .replaceAll("\\.$", "");
            return new Source(pkg, withoutCommentsAndLiterals(Files.readString(file)));
        }

        /** Every name this file writes: the dotted names it spells out with each of their prefixes, and its words. */
        Set<String> names() {
            Set<String> out = new HashSet<>();
            Matcher q = Pattern.compile("\\b[a-z]\\w*(?:\\s*\\.\\s*\\w+)+").matcher(code);
            while (q.find()) {
                String dotted = q.group().replaceAll("\\s", "");
                for (int i = dotted.indexOf('.'); i > 0; i = dotted.indexOf('.', i + 1)) {
                    out.add(dotted.substring(0, i));
                }
                out.add(dotted);
            }
            String body = code.replaceAll("(?m)^\\s*(import|package)\\s[^;]*;", "");
            Matcher w = Pattern.compile("\\b[A-Z]\\w*").matcher(body);
            while (w.find()) {
                out.add(w.group());
            }
            return out;
        }

        /** The packages this file imports with {@code *}. */
        Set<String> starImports() {
            Set<String> out = new HashSet<>();
            Matcher m = Pattern.compile("(?m)^\\s*import\\s+([\\w.]+)\\.\\*\\s*;").matcher(code);
            while (m.find()) {
                out.add(m.group(1));
            }
            return out;
        }

        /** The types declared at the top of the file, by simple name, and whether each is public. */
        Map<String, Boolean> topLevelTypes() {
            Map<String, Boolean> out = new TreeMap<>();
            Matcher m = Pattern.compile("[{}]|(?<![\\w.])(?:class|@?interface|enum|record)\\s+([A-Z]\\w*)")
                    .matcher(code);
            int depth = 0;
            while (m.find()) {
                if (m.group().equals("{")) {
                    depth++;
                } else if (m.group().equals("}")) {
                    depth--;
                } else if (depth == 0) {
                    int start = Math.max(code.lastIndexOf(';', m.start()), code.lastIndexOf('}', m.start())) + 1;
                    String modifiers = code.substring(start, m.start());
                    out.put(m.group(1), Pattern.compile("\\bpublic\\b").matcher(modifiers).find());
                }
            }
            return out;
        }
    }

    /** Java source with its comments and its string, text block and character literals emptied. */
    static String withoutCommentsAndLiterals(String src) {
        StringBuilder out = new StringBuilder(src.length());
        int i = 0;
        while (i < src.length()) {
            if (src.startsWith("//", i)) {
                int end = src.indexOf('\n', i);
                i = end < 0 ? src.length() : end;
            } else if (src.startsWith("/*", i)) {
                int end = src.indexOf("*/", i + 2);
                i = end < 0 ? src.length() : end + 2;
                out.append(' ');
            } else if (src.charAt(i) == '"' || src.charAt(i) == '\'') {
                String quote = src.startsWith("\"\"\"", i) ? "\"\"\"" : String.valueOf(src.charAt(i));
                int j = i + quote.length();
                while (j < src.length() && !src.startsWith(quote, j)) {
                    j += src.charAt(j) == '\\' ? 2 : 1;
                }
                i = j + quote.length();
                out.append(quote).append(quote);
            } else {
                out.append(src.charAt(i++));
            }
        }
        return out.toString();
    }

    /**
     * A top-level type of src/main is public only when something outside its package needs it: it is public when a
     * file of another package, in src/main or src/test, names it (by its simple name with an import of it or a
     * {@code *} import of its package, or fully qualified), or when it is on {@link #PUBLIC_UNNAMED} with its reason;
     * otherwise it is package-private. Records, enums and interfaces count; nested types do not. A listed type that
     * has become package-private or that another package now names comes off the list. A framework rarely needs
     * {@code public}: Quarkus generates a resource's invokers, a bean's proxies, a config mapping's implementation
     * and a template's value resolvers in the type's own package (when 119 types became package-private, the
     * native-image sources build made the same generated classes and the same reflection registrations as before).
     */
    @Test
    void aTypeIsPublicOnlyWhenAnotherPackageNeedsIt() throws IOException {
        List<Source> sources = new ArrayList<>();
        for (Path f : files(MAIN, ".java")) {
            sources.add(Source.read(MAIN, f));
        }
        int mainFiles = sources.size();
        for (Path f : files(TEST, ".java")) {
            sources.add(Source.read(TEST, f));
        }
        List<Set<String>> names = new ArrayList<>();
        List<Set<String>> stars = new ArrayList<>();
        for (Source s : sources) {
            names.add(s.names());
            stars.add(s.starImports());
        }
        List<String> offenders = new ArrayList<>();
        Set<String> publicTypes = new HashSet<>();
        for (int i = 0; i < mainFiles; i++) {
            Source s = sources.get(i);
            for (var type : s.topLevelTypes().entrySet()) {
                String qualified = s.pkg() + "." + type.getKey();
                boolean named = false;
                for (int j = 0; j < sources.size() && !named; j++) {
                    named = !sources.get(j).pkg().equals(s.pkg()) && (names.get(j).contains(qualified)
                            || stars.get(j).contains(s.pkg()) && names.get(j).contains(type.getKey()));
                }
                if (type.getValue()) {
                    publicTypes.add(qualified);
                }
                if (type.getValue() && !named && !PUBLIC_UNNAMED.containsKey(qualified)) {
                    offenders.add(qualified + " is public, but no other package names it: make it package-private"
                            + " (or list it in PUBLIC_UNNAMED with the reason it stays public)");
                } else if (named && PUBLIC_UNNAMED.containsKey(qualified)) {
                    offenders.add(qualified + " is named by another package now: take it off PUBLIC_UNNAMED");
                }
            }
        }
        for (String listed : PUBLIC_UNNAMED.keySet()) {
            if (!publicTypes.contains(listed)) {
                offenders.add(listed + " is not a public top-level type of src/main: take it off PUBLIC_UNNAMED");
            }
        }
        offenders.sort(null);
        assertEquals(List.of(), offenders);
    }
}
