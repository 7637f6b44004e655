package dev.steadfast;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.ConfigMappingInterface.Property;
import io.smallrye.config.ConfigMappings;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the configuration reference (docs/operations/configuration.md) and the {@code @ConfigMapping} interfaces
 * honest with each other: every {@code steadfast.*} property the mappings know has a row in the reference's table,
 * every {@code steadfast.*} name the reference mentions exists, and no property is mapped twice (a few prefixes are
 * shared by two mappings so that a setting lives in the lowest package that reads it).
 *
 * <p>The mappings are found in the sources (every interface annotated {@code @ConfigMapping(prefix = "steadfast...")})
 * and their properties listed by SmallRye's own {@link ConfigMappings#getProperties}, so nested groups and maps
 * ({@code steadfast.auth.tokens.*}) count as the server sees them. {@link #main} writes a first version of the
 * reference's table from the same list, with each setting's default and the first sentence of its Javadoc.
 */
class ConfigurationReferenceTest {

    static final Path MAIN = Path.of("src/main/java");
    static final Path REFERENCE = Path.of("docs/operations/configuration.md");
    static final Path PROPERTIES = Path.of("src/main/resources/application.properties");

    /** A {@code steadfast.} name anywhere in a text, not as part of a longer name ({@code dev.steadfast.x}). */
    static final Pattern NAME = Pattern.compile("(?<![\\w.\"-])steadfast\\.[a-z][\\w.\"<>*-]*");

    /** Every interface under src/main/java mapped to a {@code steadfast} prefix. */
    static List<Class<?>> mappings() throws IOException {
        List<Class<?>> found = new ArrayList<>();
        try (Stream<Path> s = Files.walk(MAIN)) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                if (Files.readString(f).contains("@ConfigMapping(prefix = \"steadfast")) {
                    String name = MAIN.relativize(f).toString().replace(".java", "").replace('/', '.');
                    found.add(load(name));
                }
            }
        }
        return found;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(name, e);
        }
    }

    /** Every property of every mapping by full name (maps end in {@code .*}); a name mapped twice fails. */
    static Map<String, Property> properties() throws IOException {
        Map<String, Property> all = new TreeMap<>();
        List<String> twice = new ArrayList<>();
        for (Class<?> c : mappings()) {
            String prefix = c.getAnnotation(ConfigMapping.class).prefix();
            ConfigMappings.getProperties(ConfigMappings.ConfigClass.configClass(c, prefix)).forEach((name, p) -> {
                if (all.put(name, p) != null) {
                    twice.add(name);
                }
            });
        }
        assertEquals(List.of(), twice, "properties mapped by two interfaces");
        return all;
    }

    /** Whether a name written in the reference (an example key or a {@code "<name>"} placeholder) is {@code mapped}. */
    static boolean matches(String written, String mapped) {
        return mapped.endsWith(".*") ? written.startsWith(mapped.substring(0, mapped.length() - 1))
                && written.length() > mapped.length() - 1 : written.equals(mapped);
    }

    static Set<String> namesIn(String text) {
        Set<String> names = new TreeSet<>();
        Matcher m = NAME.matcher(text);
        while (m.find()) {
            names.add(m.group().replaceAll("\\.+$", ""));
        }
        return names;
    }

    @Test
    void everyMappedPropertyHasARowInTheReference() throws IOException {
        String reference = Files.readString(REFERENCE);
        Set<String> inRows = new TreeSet<>();
        for (String line : reference.lines().filter(l -> l.startsWith("|")).toList()) {
            Matcher code = Pattern.compile("`([^`]*)`").matcher(line);
            while (code.find()) {
                inRows.addAll(namesIn(code.group(1)));
            }
        }
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, Property> e : properties().entrySet()) {
            if (inRows.stream().noneMatch(w -> matches(w, e.getKey()))) {
                missing.add(row(e.getKey(), e.getValue(), Map.of()));
            }
        }
        assertEquals(List.of(), missing, "rows missing from " + REFERENCE);
    }

    @Test
    void everyPropertyTheReferenceNamesIsMapped() throws IOException {
        Set<String> mapped = properties().keySet();
        List<String> unknown = new ArrayList<>();
        for (String written : namesIn(Files.readString(REFERENCE))) {
            if (mapped.stream().noneMatch(m -> matches(written, m))) {
                unknown.add(written);
            }
        }
        assertEquals(List.of(), unknown, "names in " + REFERENCE + " that no @ConfigMapping knows");
    }

    @Test
    void everyPropertyTheSettingsFileSetsIsMapped() throws IOException {
        Set<String> mapped = properties().keySet();
        List<String> unknown = new ArrayList<>();
        for (String line : Files.readAllLines(PROPERTIES)) {
            String key = line.startsWith("#") ? "" : line.replaceFirst("^%\\w+\\.", "").replaceFirst("=.*", "");
            if (key.startsWith("steadfast.") && mapped.stream().noneMatch(m -> matches(key, m))) {
                unknown.add(key);
            }
        }
        assertEquals(List.of(), unknown, PROPERTIES + " sets names that no @ConfigMapping knows");
    }

    // ---- writing the table ----

    /** One table row: property, environment variable, default (and the dev profile's value), first sentence. */
    static String row(String name, Property p, Map<String, String> dev) {
        String shown = name.endsWith(".*") ? name.substring(0, name.length() - 1) + "\"<name>\"" : name;
        String env = name.replace(".*", ".<NAME>").toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9<>]", "_");
        String def = p.hasDefaultValue() ? "`" + p.getDefaultValue() + "`" : p.isMap() ? "(none)" : "(unset)";
        if (dev.containsKey(name)) {
            def += " (dev: `" + dev.get(name) + "`)";
        }
        return "| `" + shown + "` | `" + env + "` | " + def + " | " + firstSentence(javadoc(p.getMethod())) + " |";
    }

    /** The Javadoc above a mapping method, read from its source file. */
    static String javadoc(Method m) {
        Class<?> top = m.getDeclaringClass();
        while (top.getEnclosingClass() != null) {
            top = top.getEnclosingClass();
        }
        try {
            String src = Files.readString(MAIN.resolve(top.getName().replace('.', '/') + ".java"));
            Matcher d = Pattern.compile("/\\*\\*((?:(?!\\*/).)*)\\*/\\s*(?:@\\w+(?:\\([^)]*\\))?\\s*)*[\\w.<>, ]+\\s+"
                    + m.getName() + "\\(\\);", Pattern.DOTALL).matcher(src);
            return d.find() ? d.group(1).replaceAll("\\s*\\n\\s*\\*\\s?", " ").trim() : "";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static String firstSentence(String doc) {
        String plain = doc.replaceAll("\\{@link #?([^}]*?)(?:\\(\\))?}", "`$1`")
                .replaceAll("\\{@code ((?:[^{}]|\\{[^{}]*})*)}", "`$1`").replace("|", "\\|");
        Matcher end = Pattern.compile("(?<!e\\.g)(?<!i\\.e)\\.(?=\\s+[A-Z(]|\\s*$)").matcher(plain);
        return end.find() ? plain.substring(0, end.end()) : plain;
    }

    /** Writes docs/operations/configuration.md from the mappings (run from the project directory). */
    public static void main(String[] args) throws IOException {
        Map<String, String> dev = new TreeMap<>();
        for (String line : Files.readAllLines(PROPERTIES)) {
            if (line.startsWith("%dev.steadfast.")) {
                dev.put(line.substring("%dev.".length(), line.indexOf('=')), line.substring(line.indexOf('=') + 1));
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("# Configuration reference\n\n")
                .append("Every Steadfast setting, as a Quarkus configuration property (`application.properties`, ")
                .append("`-Dname=value`) or an environment variable (upper case, dots and dashes as underscores). ")
                .append("Durations are ISO-8601 (`PT30S`) or short (`30s`, `1m`). The default is the production ")
                .append("default; where dev mode (`quarkus:dev`) differs, its value is shown too.\n\n")
                .append("This table is checked against the `@ConfigMapping` interfaces by ")
                .append("`ConfigurationReferenceTest`: every property has a row, every name here exists.\n\n")
                .append("| Property | Environment variable | Default | Meaning |\n")
                .append("|---|---|---|---|\n");
        for (Map.Entry<String, Property> e : properties().entrySet()) {
            out.append(row(e.getKey(), e.getValue(), dev)).append('\n');
        }
        Files.createDirectories(REFERENCE.getParent());
        Files.writeString(REFERENCE, out.toString());
    }
}
