package dev.steadfast.domain.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The firing decision with a hand-written every-minute schedule and fixed instants. */
class CronDecisionTest {

    static final FireTimes EVERY_MINUTE = after -> Optional.of(after.truncatedTo(ChronoUnit.MINUTES).plusSeconds(60));
    static final Instant T = Instant.parse("2026-03-01T10:00:00Z");
    static final Duration GRACE = Duration.ofMinutes(1);

    @Test
    void anOccurrenceOnTimeIsEnqueuedAndTheScheduleMovesToTheNextMinute() {
        CronDecision d = CronDecision.decide(T, EVERY_MINUTE, T.plusMillis(700), OverlapPolicy.SKIP, null, 0, GRACE,
                MissedOccurrences.FIRE_ONCE);
        assertTrue(d.enqueue());
        assertEquals(T, d.fireAt());
        assertEquals(T.plusSeconds(60), d.nextFireAt());
        assertNull(d.skipReason());
    }

    @Test
    void afterDowntimeOneCatchUpRunForTheEarliestMissedOccurrenceThenTheFirstFutureOne() {
        Instant now = T.plus(Duration.ofHours(3)).plusSeconds(10);
        CronDecision d = CronDecision.decide(T, EVERY_MINUTE, now, OverlapPolicy.SKIP, null, 0, GRACE,
                MissedOccurrences.FIRE_ONCE);
        assertTrue(d.enqueue());
        assertEquals(T, d.fireAt());
        assertEquals(T.plus(Duration.ofHours(3)).plusSeconds(60), d.nextFireAt(), "not 180 catch-up runs");
    }

    @Test
    void withMissedSkipAnOccurrencePastTheGraceIsSkippedButOneWithinItFires() {
        CronDecision late = CronDecision.decide(T, EVERY_MINUTE, T.plus(Duration.ofMinutes(5)), OverlapPolicy.ALLOW,
                null, 0, GRACE, MissedOccurrences.SKIP);
        assertFalse(late.enqueue());
        assertTrue(late.skipReason().startsWith("missed"));
        CronDecision onTime = CronDecision.decide(T, EVERY_MINUTE, T.plusSeconds(59), OverlapPolicy.ALLOW, null, 0,
                GRACE,
                MissedOccurrences.SKIP);
        assertTrue(onTime.enqueue());
    }

    @Test
    void overlapPolicies() {
        Instant now = T.plusSeconds(1);
        CronDecision skip = CronDecision.decide(T, EVERY_MINUTE, now, OverlapPolicy.SKIP, "active", 0, GRACE,
                MissedOccurrences.FIRE_ONCE);
        assertFalse(skip.enqueue());
        assertEquals("overlap: the previous run is still active", skip.skipReason());
        assertEquals(T.plusSeconds(60), skip.nextFireAt(), "a skipped occurrence still moves the schedule on");
        CronDecision allow = CronDecision.decide(T, EVERY_MINUTE, now, OverlapPolicy.ALLOW, "active", 0, GRACE,
                MissedOccurrences.FIRE_ONCE);
        assertTrue(allow.enqueue());
        assertFalse(allow.cancelPrevious());
        CronDecision cancel = CronDecision.decide(T, EVERY_MINUTE, now, OverlapPolicy.CANCEL_PREVIOUS, "available", 0,
                GRACE, MissedOccurrences.FIRE_ONCE);
        assertTrue(cancel.enqueue());
        assertTrue(cancel.cancelPrevious());
        CronDecision finished = CronDecision.decide(T, EVERY_MINUTE, now, OverlapPolicy.CANCEL_PREVIOUS, null, 0, GRACE,
                MissedOccurrences.FIRE_ONCE);
        assertFalse(finished.cancelPrevious(), "nothing to cancel once the previous run finished");
    }

    @Test
    void enqueueHoldsAnOccurrenceBehindAnUnfinishedRunAndWarnsAboveTwoQueued() {
        Instant now = T.plusSeconds(1);
        CronDecision free = CronDecision.decide(T, EVERY_MINUTE, now, OverlapPolicy.ENQUEUE, null, 0, GRACE,
                MissedOccurrences.FIRE_ONCE);
        assertTrue(free.enqueue());
        assertFalse(free.hold(), "nothing runs: the occurrence starts at once");
        assertEquals(0, free.queued());
        CronDecision behind = CronDecision.decide(T, EVERY_MINUTE, now, OverlapPolicy.ENQUEUE, "active", 0, GRACE,
                MissedOccurrences.FIRE_ONCE);
        assertTrue(behind.enqueue(), "enqueued, not skipped");
        assertTrue(behind.hold(), "but held until the active run finishes");
        assertFalse(behind.cancelPrevious());
        assertNull(behind.skipReason());
        assertEquals(T.plusSeconds(60), behind.nextFireAt());
        assertEquals(1, behind.queued());
        assertFalse(behind.warn());
        CronDecision second = CronDecision.decide(T, EVERY_MINUTE, now, OverlapPolicy.ENQUEUE, "pending", 1, GRACE,
                MissedOccurrences.FIRE_ONCE);
        assertEquals(2, second.queued());
        assertFalse(second.warn(), "two queued: no warning yet");
        CronDecision third = CronDecision.decide(T, EVERY_MINUTE, now, OverlapPolicy.ENQUEUE, "pending", 2, GRACE,
                MissedOccurrences.FIRE_ONCE);
        assertEquals(3, third.queued());
        assertTrue(third.warn(), "more than 2 queued occurrences (ojs-cron 6.1)");
        CronDecision afterCancelled = CronDecision.decide(T, EVERY_MINUTE, now, OverlapPolicy.ENQUEUE, null, 1, GRACE,
                MissedOccurrences.FIRE_ONCE);
        assertTrue(afterCancelled.hold(), "the latest run finished, but an earlier occurrence still waits its turn");
        CronDecision allow = CronDecision.decide(T, EVERY_MINUTE, now, OverlapPolicy.ALLOW, "active", 0, GRACE,
                MissedOccurrences.FIRE_ONCE);
        assertFalse(allow.hold(), "only enqueue holds");
        CronDecision missed = CronDecision.decide(T, EVERY_MINUTE, T.plus(Duration.ofMinutes(5)),
                OverlapPolicy.ENQUEUE, "active", 1, GRACE, MissedOccurrences.SKIP);
        assertFalse(missed.enqueue(), "a missed occurrence is skipped under enqueue too");
        assertEquals(1, missed.queued());
    }

    @Test
    void aScheduleThatNeverFiresAgainHasNoNextTimeAndAFutureOccurrenceIsNotDue() {
        CronDecision d = CronDecision.decide(T, after -> Optional.empty(), T, OverlapPolicy.SKIP, null, 0, GRACE,
                MissedOccurrences.FIRE_ONCE);
        assertNull(d.nextFireAt());
        assertThrows(IllegalArgumentException.class, () -> CronDecision.decide(T, EVERY_MINUTE, T.minusSeconds(1),
                OverlapPolicy.SKIP, null, 0, GRACE, MissedOccurrences.FIRE_ONCE));
    }
}
