package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SweepFloorTest {

    static final Instant T = Instant.parse("2026-11-28T12:00:00Z");

    final SweepFloor floor = new SweepFloor(Duration.ofSeconds(1), Duration.ofSeconds(2),
            ClaimCursors.FULL_COST_SHARE);

    @Test
    void aSweepStartsAtTheLastFinishedSweepLessTheLookback() {
        assertNull(floor.from(T), "no sweep finished yet: from the head");
        floor.swept(T);
        assertEquals(T.minusSeconds(1), floor.from(T.plusMillis(100)));
        floor.swept(T.plusMillis(500));
        floor.swept(T.plusMillis(300)); // a slower sweep that started earlier finished later
        assertEquals(T.minusMillis(500), floor.from(T.plusMillis(600)));
    }

    @Test
    void fromTheHeadEveryIntervalWhenTheClockWentBackAndAfterForget() {
        floor.from(T);
        floor.swept(T);
        assertEquals(T.minusSeconds(1), floor.from(T.plusMillis(1999)));
        assertNull(floor.from(T.plusSeconds(2)), "the interval has passed");
        assertEquals(T.minusSeconds(1), floor.from(T.plusSeconds(2)));
        assertNull(floor.from(T.plusSeconds(1)), "the clock went back");
        floor.swept(T.plusSeconds(3600)); // a sweep a test ran an hour ahead
        assertEquals(T, floor.from(T.plusSeconds(1)), "never after now less the look-back");
        floor.forget();
        assertNull(floor.from(T.plusSeconds(1)));
    }

    @Test
    void aSlowSweepFromTheHeadPushesTheNextOneOutToFiftyTimesItsDuration() {
        assertNull(floor.from(T));
        floor.swept(T, true, Duration.ofMillis(100)); // 50 x 100 ms = 5 s
        assertNotNull(floor.from(T.plusSeconds(2)));
        floor.swept(T.plusSeconds(2), false, Duration.ofSeconds(9)); // a sweep from the floor paces nothing
        assertNotNull(floor.from(T.plusMillis(4999)));
        assertNull(floor.from(T.plusSeconds(5)));
        floor.swept(T.plusSeconds(5), true, Duration.ofMillis(2));
        assertNotNull(floor.from(T.plusMillis(6999)));
        assertNull(floor.from(T.plusSeconds(7)));
    }

    @Test
    void aZeroIntervalAlwaysSweepsFromTheHead() {
        SweepFloor off = new SweepFloor(Duration.ZERO, Duration.ZERO, 0);
        off.swept(T);
        assertNull(off.from(T));
        assertThrows(IllegalArgumentException.class, () -> new SweepFloor(Duration.ZERO, Duration.ofSeconds(-1), 0));
    }
}
