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
 * pool come from one factory; console templates never switch escaping off and every POST form in them carries the CSRF field.
 */
class ArchitectureTest {

    static final Path MAIN = Path.of("src/main/java/dev/steadfast");
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
            String src = Files.readString(f).replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ")
                    .replaceFirst("package [\\w.]+;", "");
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
            String src = Files.readString(f).replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ");
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
            String src = Files.readString(f).replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ");
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
}
