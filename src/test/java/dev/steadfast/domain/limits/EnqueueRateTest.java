package dev.steadfast.domain.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EnqueueRateTest {

    static final Instant T = Instant.parse("2026-03-01T10:00:00Z");
    static final EnqueueRate TEN_A_MINUTE = new EnqueueRate(10, Duration.ofMinutes(1));

    @Test
    void aFullBucketTakesABurstOfTheLimitThenRefusesWithTheWait() {
        EnqueueRate.Take t = TEN_A_MINUTE.take(null, 10, T);
        assertTrue(t.admitted());
        assertEquals(0.0, t.bucket().tokens());
        EnqueueRate.Take refused = TEN_A_MINUTE.take(t.bucket(), 1, T.plusSeconds(1));
        assertFalse(refused.admitted());
        // one token comes every 6 s: 1/6 of it was there after 1 s, the rest takes 5 s
        assertEquals(Duration.ofSeconds(5), refused.retryAfter());
        assertTrue(TEN_A_MINUTE.take(refused.bucket(), 1, T.plusSeconds(6)).admitted());
        assertEquals(10, TEN_A_MINUTE.used(t.bucket(), T));
        assertEquals(5, TEN_A_MINUTE.used(t.bucket(), T.plusSeconds(30)));
    }

    @Test
    void theBucketRefillsAtTheRateAndNeverAboveTheLimit() {
        EnqueueRate.Bucket empty = new EnqueueRate.Bucket(0.0, T);
        assertEquals(5.0, TEN_A_MINUTE.tokens(empty, T.plusSeconds(30)), 1e-9);
        assertEquals(10.0, TEN_A_MINUTE.tokens(empty, T.plusSeconds(3600)), 1e-9);
        assertEquals(0.0, TEN_A_MINUTE.tokens(empty, T.minusSeconds(5)), 1e-9, "a clock that went back adds nothing");
        EnqueueRate.Take partly = TEN_A_MINUTE.take(empty, 4, T.plusSeconds(30));
        assertTrue(partly.admitted());
        assertEquals(1.0, partly.bucket().tokens(), 1e-9);
        assertEquals(T.plusSeconds(30), partly.bucket().at());
    }

    @Test
    void aPushLargerThanTheLimitNeverPassesAndWaitsAWholePeriodForNothingBetter() {
        EnqueueRate.Take t = TEN_A_MINUTE.take(null, 11, T);
        assertFalse(t.admitted());
        assertEquals(Duration.ofMinutes(1), t.retryAfter());
        assertEquals(10.0, t.bucket().tokens(), "a refusal takes nothing");
    }

    @Test
    void limitsAndPeriodsOutOfRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new EnqueueRate(0, Duration.ofMinutes(1)));
        assertThrows(IllegalArgumentException.class, () -> new EnqueueRate(1, Duration.ofMillis(999)));
        assertThrows(IllegalArgumentException.class, () -> new EnqueueRate(1, Duration.ofDays(1).plusSeconds(1)));
    }
}
