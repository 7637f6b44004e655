package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The offset to the database's clock: the midpoint rule, the tightest sample winning, nonsense ignored. */
class ClockOffsetTest {

    static final Instant T = Instant.parse("2026-11-23T12:00:00Z");

    static ClockOffset.Sample sample(long sentMs, long dbMs, long receivedMs) {
        return new ClockOffset.Sample(T.plusMillis(sentMs), T.plusMillis(dbMs), T.plusMillis(receivedMs));
    }

    @Test
    void theDatabaseReadItsClockAtTheMidpointOfTheRoundTrip() {
        assertEquals(Duration.ofMillis(500), sample(0, 505, 10).offset());   // database 500 ms ahead
        assertEquals(Duration.ofMillis(-2000), sample(0, -1995, 10).offset()); // database 2 s behind
    }

    @Test
    void theShortestRoundTripWins() {
        Duration best = ClockOffset.best(List.of(sample(0, 540, 80), sample(100, 603, 106), sample(200, 690, 260)));
        assertEquals(Duration.ofMillis(500), best);
    }

    @Test
    void aSampleDuringWhichTheLocalClockSteppedBackIsIgnoredAndNoSampleMeansNoOffset() {
        assertEquals(Duration.ofMillis(500), ClockOffset.best(List.of(sample(100, 9_999, 50), sample(0, 505, 10))));
        assertEquals(Duration.ZERO, ClockOffset.best(List.of()));
        assertEquals(Duration.ZERO, ClockOffset.best(List.of(sample(100, 9_999, 50))));
    }
}
