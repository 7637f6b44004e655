package dev.steadfast.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.console.ConsoleConfig;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which key signs sessions (the shared one unless one is configured), and when a console with login warns about its
 * neighbours: only when they sign sessions with another key.
 */
class SessionKeysTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static SessionCodec codec(Optional<String> secret) {
        Map<String, Object> console = Map.of("authEnabled", true, "username", "ops", "passwordHash", Optional.empty(),
                "sessionSecret", secret, "sessionTimeout", Duration.ofHours(8),
                "secureCookies", Optional.empty(), "maxFailedLogins", 10);
        return new SessionCodec((ConsoleConfig) Proxy.newProxyInstance(SessionKeysTest.class.getClassLoader(),
                new Class<?>[] {ConsoleConfig.class}, (p, m, a) -> console.get(m.getName())));
    }

    @Test
    void aLoneInstanceAndInstancesSharingTheKeyAreQuiet() {
        assertNull(SessionKeys.mismatch(42, List.of(42L)));
        assertNull(SessionKeys.mismatch(42, List.of(42L, 42L, 42L)));
    }

    @Test
    void instancesWithoutLoginAreNotCompared() {
        assertNull(SessionKeys.mismatch(42, List.of(42L, 0L)));
        assertNull(SessionKeys.mismatch(0, List.of(0L, 7L, 9L)));
    }

    @Test
    void anotherKeyIsNamedWithWhatToSet() {
        String why = SessionKeys.mismatch(42, List.of(42L, 7L));
        assertNotNull(why);
        assertTrue(why.contains("steadfast.console.session-secret"), why);
        assertTrue(why.contains("1 other"), why);
    }

    @Test
    void theSharedKeyIsUsedUnlessOneIsConfigured() {
        byte[] shared = new byte[32];
        Arrays.fill(shared, (byte) 7);
        SessionCodec first = codec(Optional.empty());
        SessionCodec second = codec(Optional.empty());
        assertFalse(first.configured());
        first.useKey(shared);
        second.useKey(shared);
        assertEquals(first.keyFingerprint(), second.keyFingerprint());
        String cookie = first.encode(new Session("ops", "csrf", NOW.plusSeconds(60)));
        assertEquals("ops", second.decode(cookie, NOW).orElseThrow().user(), "a login made on one is valid on the other");

        SessionCodec configured = codec(Optional.of("a-configured-secret-of-32-characters-or-more"));
        int before = configured.keyFingerprint();
        configured.useKey(shared);
        assertTrue(configured.configured());
        assertEquals(before, configured.keyFingerprint(), "a configured key wins over the shared one");
        assertTrue(configured.decode(cookie, NOW).isEmpty());
    }

    @Test
    void fingerprintsAboveTwoToTheThirtyOneCompareAsTheDatabaseShowsThem() {
        assertNull(SessionKeys.mismatch(Integer.MAX_VALUE, List.of((long) Integer.MAX_VALUE)));
    }
}
