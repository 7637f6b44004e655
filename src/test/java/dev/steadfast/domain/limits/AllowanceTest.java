package dev.steadfast.domain.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.steadfast.domain.OjsException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Queue limits: a sliding window of starts and a ceiling on active jobs, at fixed instants. */
class AllowanceTest {

    static final Instant T0 = Instant.parse("2026-11-23T12:00:00.900Z");

    @Test
    void aRateAllowsAtMostLimitStartsInAnyPeriodLongInterval() {
        QueueLimits l = QueueLimits.perSecond(1);
        assertEquals(1, Allowance.of(l, List.of(), 0, T0, 10));
        List<Instant> w = Allowance.after(l, List.of(), T0, 1);
        // 200 ms later a fixed window aligned to whole seconds would have reset; the sliding window has not
        assertEquals(0, Allowance.of(l, w, 0, T0.plusMillis(200), 10));
        assertEquals(0, Allowance.of(l, w, 0, T0.plusMillis(999), 10));
        assertEquals(1, Allowance.of(l, w, 0, T0.plusSeconds(1), 10));
    }

    @Test
    void theWindowKeepsOnlyWhatCanStillDecide() {
        QueueLimits l = new QueueLimits(3, Duration.ofMinutes(1), null);
        List<Instant> w = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            w = Allowance.after(l, w, T0.plusSeconds(i), 1);
        }
        assertEquals(3, w.size());
        assertEquals(T0.plusSeconds(2), w.get(0));
        assertEquals(0, Allowance.of(l, w, 0, T0.plusSeconds(30), 5));
        assertEquals(1, Allowance.of(l, w, 0, T0.plusSeconds(62), 5));
        assertEquals(List.of(), Allowance.after(new QueueLimits(null, null, 2), w, T0, 1));
    }

    @Test
    void concurrencyCountsActiveJobsAndTheStricterLimitWins() {
        QueueLimits l = new QueueLimits(10, Duration.ofSeconds(1), 3);
        assertEquals(3, Allowance.of(l, List.of(), 0, T0, 10));
        assertEquals(1, Allowance.of(l, List.of(), 2, T0, 10));
        assertEquals(0, Allowance.of(l, List.of(), 5, T0, 10));
        assertEquals(0, Allowance.of(new QueueLimits(0, Duration.ofSeconds(1), null), List.of(), 0, T0, 1));
    }

    @Test
    void badLimitsAreRefused() {
        assertThrows(OjsException.class, () -> new QueueLimits(5, null, null));
        assertThrows(OjsException.class, () -> new QueueLimits(QueueLimits.MAX_RATE + 1, Duration.ofSeconds(1), null));
        assertThrows(OjsException.class, () -> new QueueLimits(1, Duration.ZERO, null));
        assertThrows(OjsException.class, () -> new QueueLimits(null, null, -1));
    }
}
