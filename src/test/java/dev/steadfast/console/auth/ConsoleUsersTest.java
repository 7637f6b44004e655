package dev.steadfast.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The console users' configuration lines: what they accept, and that a bad line names its user, never its hash. */
class ConsoleUsersTest {

    private static final String HASH = PasswordHash.create("pw".toCharArray(), 1_000);

    @Test
    void rolesAndTheSingleUser() {
        ConsoleUsers u = ConsoleUsers.parse(Map.of("v", "readonly:" + HASH, "o", "OPERATOR:" + HASH),
                "root", Optional.of(HASH));
        assertEquals(ConsoleRole.READONLY, u.find("v").orElseThrow().role());
        assertEquals(ConsoleRole.OPERATOR, u.find("o").orElseThrow().role());
        assertEquals(ConsoleRole.ADMIN, u.find("root").orElseThrow().role());
        assertTrue(u.find("nobody").isEmpty());
        assertTrue(u.find(null).isEmpty());
        assertTrue(ConsoleUsers.parse(Map.of(), "admin", Optional.empty()).isEmpty(), "no hash, no user");
        assertFalse(ConsoleUsers.parse(Map.of("v", "readonly:" + HASH), "admin", Optional.empty()).isEmpty());
    }

    @Test
    void aBadLineFailsNamingItsUserNotItsHash() {
        for (String line : new String[] {"superuser:" + HASH, HASH, "readonly:", "readonly:not-a-hash",
                "readonly:pbkdf2-sha256$10$AAAAAAAAAAA=$AAAAAAAAAAAAAAAAAAAAAA=="}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ConsoleUsers.parse(Map.of("bob", line), "admin", Optional.empty()), line);
            assertTrue(e.getMessage().contains("steadfast.console.users.\"bob\""), e.getMessage());
            assertFalse(e.getMessage().contains(HASH), e.getMessage());
        }
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> ConsoleUsers.parse(Map.of("admin", "readonly:" + HASH), "admin", Optional.of(HASH)));
        assertTrue(twice.getMessage().contains("second time"), twice.getMessage());
    }
}
