package dev.steadfast.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the count of Quarkus starts in the unit and API tests (surefire) small and docs/internals/testing.md true
 * about it: every distinct {@code @TestProfile} is one more Quarkus build and start (about 15-20 s here), so the
 * classes share the profiles of {@link Profiles}, and only the two classes named there keep one of their own. A
 * class that brings another profile fails here until it joins one of these or the list (and the count in the doc)
 * grows in the same commit, with the reason.
 */
class TestProfilesTest {

    static final Path TESTS = Path.of("src/test/java");
    static final Path DOC = Path.of("docs/internals/testing.md");

    /** The annotation naming a test profile class, as written in a test's source. */
    static final Pattern PROFILE = Pattern.compile("@TestProfile\\(\\s*([\\w.]+)\\.class\\s*\\)");

    /** The profiles of the surefire tests (the packaged-jar suite, failsafe, starts processes of its own). */
    static TreeMap<String, Set<String>> profiles() throws IOException {
        TreeMap<String, Set<String>> found = new TreeMap<>();
        try (Stream<Path> s = Files.walk(TESTS)) {
            for (Path f : s.filter(p -> p.toString().endsWith("Test.java")).sorted().toList()) {
                Matcher m = PROFILE.matcher(Files.readString(f));
                while (m.find()) {
                    found.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(className(f));
                }
            }
        }
        return found;
    }

    /** The fully qualified name of the class a test source declares, from its path. */
    static String className(Path source) {
        String relative = TESTS.relativize(source).toString();
        return relative.substring(0, relative.length() - ".java".length()).replace('/', '.');
    }

    @Test
    void theTestsShareTheseProfilesOnly() throws IOException {
        assertEquals(Set.of("Profiles.Tokens", "Profiles.TokensWithoutReset", "Profiles.Switches",
                "CostBudgetTest.Counted"), profiles().keySet(), profiles().toString());
    }

    /**
     * ServerDrainTest puts its server into shutdown for good, so it must be the last class of its profile to run:
     * Quarkus' class orderer runs a profile's classes in the order of their fully qualified names.
     */
    @Test
    void theDrainRunsLastOfItsProfile() throws IOException {
        String drain = "dev.steadfast.work.ServerDrainTest";
        Set<String> switches = profiles().get("Profiles.Switches");
        assertTrue(switches.contains(drain), switches.toString());
        assertEquals(drain, ((TreeSet<String>) switches).last(), "a class of the Switches profile sorts after "
                + drain + " and would meet a server that no longer hands out work: " + switches);
    }

    @Test
    void theTestingDocCountsTheQuarkusStarts() throws IOException {
        int starts = profiles().size() + 1; // and the default profile
        String doc = Files.readString(DOC);
        assertTrue(doc.contains("Quarkus starts " + starts + " times"), "docs/internals/testing.md should say"
                + " \"Quarkus starts " + starts + " times\" (the default profile and " + (starts - 1) + " others)");
    }
}
