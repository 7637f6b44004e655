package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every named statement of store/ (a static String constant) is short enough for the client to cache it as a
 * prepared statement ({@link PrimaryPoolCreator#STATEMENT_CACHE_SQL_LIMIT}). A longer one would be prepared anew on
 * every execution, in a round trip and a transaction of its own, without anything failing: COMPLETE and
 * RECORD_FAILURES did so unnoticed once (docs/performance/README.md).
 */
class StatementCacheTest {

    private static final Path CLASSES = Path.of("target/classes");

    @Test
    void everyNamedStatementFitsTheClientsStatementCache() throws Exception {
        List<String> tooLong = new ArrayList<>();
        int checked = 0;
        for (StoreString f : storeStrings()) {
            if (!looksLikeSql(f.value())) {
                continue;
            }
            checked++;
            if (f.value().length() >= PrimaryPoolCreator.STATEMENT_CACHE_SQL_LIMIT) {
                tooLong.add(f.owner().getName() + "." + f.field() + " (" + f.value().length() + " characters)");
            }
        }
        assertTrue(checked > 100, "found only " + checked + " statements under " + CLASSES);
        assertTrue(tooLong.isEmpty(), "statements the client would prepare on every execution: " + tooLong);
    }

    private static boolean looksLikeSql(String s) {
        String t = s.stripLeading().toUpperCase();
        return t.startsWith("SELECT") || t.startsWith("WITH") || t.startsWith("INSERT") || t.startsWith("UPDATE")
                || t.startsWith("DELETE");
    }

    /** The classes of store/ (and the packages inside it), by name, from the compiled classes. */
    static List<String> storeClasses() throws IOException {
        Path root = CLASSES.resolve("dev/steadfast/store");
        try (Stream<Path> s = Files.walk(root)) {
            return s.map(p -> CLASSES.relativize(p).toString()).filter(p -> p.endsWith(".class"))
                    .map(p -> p.substring(0, p.length() - ".class".length()).replace('/', '.')).sorted().toList();
        }
    }

    /** A static String field of a store class, and its value (not null). */
    record StoreString(Class<?> owner, String field, String value) {
    }

    /** Every static String field of store/'s classes ({@link #storeClasses}) that holds a value, in class order. */
    static List<StoreString> storeStrings() throws Exception {
        List<StoreString> out = new ArrayList<>();
        for (String name : storeClasses()) {
            Class<?> c = Class.forName(name, true, StatementCacheTest.class.getClassLoader());
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) || f.getType() != String.class) {
                    continue;
                }
                f.setAccessible(true);
                String value = (String) f.get(null);
                if (value != null) {
                    out.add(new StoreString(c, f.getName(), value));
                }
            }
        }
        return out;
    }
}
