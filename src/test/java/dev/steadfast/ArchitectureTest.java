package dev.steadfast;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * House rules checked on the sources: only store/ talks to the database; the domain is pure Java; console
 * templates never switch escaping off and every POST form in them carries the CSRF field.
 */
class ArchitectureTest {

    static final Path MAIN = Path.of("src/main/java/dev/steadfast");
    static final Path TEMPLATES = Path.of("src/main/resources/templates");

    private static List<Path> files(Path root, String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
        }
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

    @Test
    void theDomainImportsOnlyJava() throws IOException {
        List<String> offenders = new ArrayList<>();
        Pattern imp = Pattern.compile("^import (static )?([\\w.]+)", Pattern.MULTILINE);
        for (Path f : files(MAIN.resolve("domain"), ".java")) {
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
