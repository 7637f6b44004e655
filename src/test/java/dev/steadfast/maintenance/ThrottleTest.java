package dev.steadfast.maintenance;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ThrottleTest {

    private static final Instant T = Instant.parse("2026-11-26T08:00:00Z");

    @Test
    void letsOneCallerThroughPerInterval() {
        Throttle t = new Throttle(Duration.ofMillis(100));
        assertTrue(t.tryPass(T));
        assertFalse(t.tryPass(T));
        assertFalse(t.tryPass(T.plusMillis(99)));
        assertTrue(t.tryPass(T.plusMillis(100)));
        assertFalse(t.tryPass(T.plusMillis(150)));
    }

    @Test
    void aClockSteppingBackBeforeTheLastPassDoesNotShutTheGateUntilItCatchesUp() {
        Throttle t = new Throttle(Duration.ofMillis(100));
        assertTrue(t.tryPass(T));
        assertTrue(t.tryPass(T.minus(Duration.ofHours(1))), "an hour back: passes at once, not in an hour");
        assertFalse(t.tryPass(T.minus(Duration.ofHours(1)).plusMillis(10)));
        assertTrue(t.tryPass(T.minus(Duration.ofHours(1)).plusMillis(100)));
    }
}
