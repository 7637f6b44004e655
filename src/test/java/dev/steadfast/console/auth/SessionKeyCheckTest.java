package dev.steadfast.console.auth;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which neighbours a console with login may run beside: only instances signing sessions with the same key. */
class SessionKeyCheckTest {

    @Test
    void aLoneInstanceAndInstancesSharingTheKeyStart() {
        assertNull(SessionKeyCheck.conflict(42, List.of(42L)));
        assertNull(SessionKeyCheck.conflict(42, List.of(42L, 42L, 42L)));
    }

    @Test
    void instancesWithoutLoginAreNotCompared() {
        assertNull(SessionKeyCheck.conflict(42, List.of(42L, 0L)));
        assertNull(SessionKeyCheck.conflict(0, List.of(0L, 7L, 9L)));
    }

    @Test
    void anotherKeyRefusesTheStartAndSaysWhatToSet() {
        String why = SessionKeyCheck.conflict(42, List.of(42L, 7L));
        assertNotNull(why);
        assertTrue(why.contains("steadfast.console.session-secret"), why);
        assertTrue(why.contains("1 other"), why);
    }

    @Test
    void fingerprintsAboveTwoToTheThirtyOneCompareAsTheDatabaseShowsThem() {
        assertNull(SessionKeyCheck.conflict(Integer.MAX_VALUE, List.of((long) Integer.MAX_VALUE)));
    }
}
