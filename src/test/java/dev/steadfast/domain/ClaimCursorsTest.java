package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.ClaimCursors.Key;
import dev.steadfast.domain.ClaimCursors.Start;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ClaimCursorsTest {

    static final Instant T = Instant.parse("2026-11-28T12:00:00Z");
    static final UUID A = UUID.fromString("019ab4c2-0000-7000-8000-000000000001");
    static final UUID B = UUID.fromString("019ab4c2-0000-7000-8000-000000000002");

    final ClaimCursors cursors = new ClaimCursors(Duration.ofSeconds(1), Duration.ofSeconds(2),
            ClaimCursors.FULL_COST_SHARE);

    @Test
    void aQueueWithoutACursorIsReadWhole() {
        assertTrue(cursors.start("q", T).full());
        // a full claim that took nothing leaves no cursor: the next claim past the interval reads whole again
        cursors.claimed("q", ClaimCursors.Start.FULL, null);
        assertTrue(cursors.start("q", T.plusSeconds(2)).full());
    }

    static final Start FROM_CURSOR = new Start(false, 0, T);

    @Test
    void aClaimStartsWhereTheLastEndedLessTheLookback() {
        Start first = cursors.start("q", T);
        assertTrue(first.full());
        cursors.claimed("q", first, new Key(3, T.minusSeconds(10), A));
        Start s = cursors.start("q", T.plusMillis(500));
        assertFalse(s.full());
        assertEquals(3, s.priority());
        assertEquals(T.minusSeconds(11), s.fromRunAt());
        // other queues have their own
        assertTrue(cursors.start("other", T.plusMillis(500)).full());
    }

    @Test
    void theWholeQueueIsReadAgainEveryIntervalAndWhenTheClockWentBack() {
        cursors.claimed("q", cursors.start("q", T), new Key(0, T, A));
        assertFalse(cursors.start("q", T.plusMillis(1999)).full());
        assertTrue(cursors.start("q", T.plusSeconds(2)).full(), "the interval has passed");
        // one full claim per interval, however many FETCHes run at once
        assertFalse(cursors.start("q", T.plusSeconds(2)).full());
        assertFalse(cursors.start("q", T.plusMillis(3999)).full());
        assertTrue(cursors.start("q", T.plusSeconds(1)).full(), "the clock went back");
    }

    @Test
    void aSlowFullClaimPushesTheNextOneOutToFiftyTimesItsDuration() {
        cursors.claimed("q", cursors.start("q", T), new Key(0, T, A));
        cursors.fullClaimTook("q", Duration.ofMillis(150)); // a held horizon: 50 x 150 ms = 7.5 s
        assertFalse(cursors.start("q", T.plusSeconds(2)).full(), "not after the plain interval");
        assertFalse(cursors.start("q", T.plusMillis(7499)).full());
        assertTrue(cursors.start("q", T.plusMillis(7500)).full());
        cursors.fullClaimTook("q", Duration.ofMillis(1)); // cheap again: back to the interval
        assertFalse(cursors.start("q", T.plusMillis(9499)).full());
        assertTrue(cursors.start("q", T.plusMillis(9500)).full());
        assertEquals(Duration.ofSeconds(2), ClaimCursors.fullInterval(Duration.ofSeconds(2), Duration.ofMillis(40), 50));
        assertEquals(Duration.ofMillis(2050), ClaimCursors.fullInterval(Duration.ofSeconds(2), Duration.ofMillis(41), 50));
        // a share of 0: every interval whatever a full claim cost
        ClaimCursors unpaced = new ClaimCursors(Duration.ofSeconds(1), Duration.ofSeconds(2), 0);
        unpaced.claimed("q", unpaced.start("q", T), new Key(0, T, A));
        unpaced.fullClaimTook("q", Duration.ofSeconds(1));
        assertTrue(unpaced.start("q", T.plusSeconds(2)).full());
    }

    @Test
    void otherClaimsMoveTheCursorForwardWithinABandAndToTheBandTheyEndedIn() {
        cursors.claimed("q", cursors.start("q", T), new Key(0, T, B));
        cursors.claimed("q", FROM_CURSOR, new Key(0, T, A)); // a slower concurrent claim that ended earlier
        assertEquals(T.minusSeconds(1), cursors.start("q", T).fromRunAt());
        cursors.claimed("q", FROM_CURSOR, new Key(0, T.minusSeconds(5), B));
        assertEquals(T.minusSeconds(1), cursors.start("q", T).fromRunAt());
        cursors.claimed("q", FROM_CURSOR, new Key(0, T.plusMillis(500), A));
        assertEquals(T.minusMillis(500), cursors.start("q", T.plusSeconds(1)).fromRunAt());
        cursors.claimed("q", FROM_CURSOR, new Key(7, T.minusSeconds(30), A));
        Start s = cursors.start("q", T.plusSeconds(1));
        assertEquals(7, s.priority());
        assertEquals(T.minusSeconds(31), s.fromRunAt());
    }

    @Test
    void aFullClaimSetsTheCursorWhereItEnded() {
        cursors.claimed("q", cursors.start("q", T), new Key(0, T.plusSeconds(3600), B));
        Start full = cursors.start("q", T.plusSeconds(5));
        assertTrue(full.full());
        cursors.claimed("q", full, new Key(0, T.minusSeconds(10), A));
        assertEquals(T.minusSeconds(11), cursors.start("q", T.plusSeconds(5)).fromRunAt());
    }

    @Test
    void aClaimNeverStartsAfterItsOwnNowLessTheLookback() {
        // a cursor an hour ahead (the clock went back since): the claim starts at now less the look-back
        cursors.claimed("q", cursors.start("q", T), new Key(0, T.plusSeconds(3600), B));
        Start s = cursors.start("q", T.plusSeconds(1));
        assertFalse(s.full());
        assertEquals(T, s.fromRunAt());
    }

    @Test
    void aZeroIntervalMeansNoCursorAndForgetStartsOver() {
        ClaimCursors off = new ClaimCursors(Duration.ZERO, Duration.ZERO, 0);
        off.claimed("q", off.start("q", T), new Key(0, T, A));
        assertTrue(off.start("q", T).full());
        cursors.claimed("q", cursors.start("q", T), new Key(0, T, A));
        cursors.forget();
        assertTrue(cursors.start("q", T).full());
        assertThrows(IllegalArgumentException.class, () -> new ClaimCursors(Duration.ofSeconds(-1), Duration.ZERO, 0));
        assertThrows(IllegalArgumentException.class, () -> new ClaimCursors(Duration.ZERO, Duration.ZERO, -1));
    }
}
