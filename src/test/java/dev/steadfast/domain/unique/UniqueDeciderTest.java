package dev.steadfast.domain.unique;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.unique.UniquePolicy.Dimension;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The conflict decision (ojs-unique-jobs.md 5 to 7) at fixed instants. */
class UniqueDeciderTest {

    static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");

    static UniquePolicy policy(OnConflict c, Duration period, Set<JobState> states) {
        return new UniquePolicy(EnumSet.of(Dimension.ARGS), null, null, null, period, states, c);
    }

    static UniqueHolder holder(JobState s, Instant created) {
        return new UniqueHolder(UUID.randomUUID(), s, created, s == JobState.SCHEDULED ? NOW.plusSeconds(600) : null);
    }

    @Test
    void noHolderMeansInsert() {
        assertInstanceOf(UniqueDecision.Insert.class,
                UniqueDecider.decide(policy(OnConflict.REJECT, null, null), List.of(), NOW));
    }

    @Test
    void theDefaultStatesAreTheNonTerminalOnes() {
        UniquePolicy p = policy(OnConflict.REJECT, null, null);
        for (JobState s : JobState.values()) {
            UniqueDecision d = UniqueDecider.decide(p, List.of(holder(s, NOW.minusSeconds(5))), NOW);
            assertEquals(!s.terminal(), d instanceof UniqueDecision.Reject, s.wire());
        }
    }

    @Test
    void onlyTheListedStatesCount() {
        UniquePolicy p = policy(OnConflict.REJECT, null, Set.of(JobState.AVAILABLE));
        assertInstanceOf(UniqueDecision.Insert.class,
                UniqueDecider.decide(p, List.of(holder(JobState.ACTIVE, NOW)), NOW));
        UniquePolicy withCompleted = policy(OnConflict.REJECT, null, Set.of(JobState.COMPLETED));
        assertInstanceOf(UniqueDecision.Reject.class,
                UniqueDecider.decide(withCompleted, List.of(holder(JobState.COMPLETED, NOW)), NOW));
    }

    @Test
    void thePeriodRunsFromTheHoldersCreationAndEndsExactlyAtItsEnd() {
        UniquePolicy p = policy(OnConflict.REJECT, Duration.ofSeconds(2), null);
        assertInstanceOf(UniqueDecision.Reject.class,
                UniqueDecider.decide(p, List.of(holder(JobState.AVAILABLE, NOW.minusMillis(1999))), NOW));
        assertInstanceOf(UniqueDecision.Insert.class,
                UniqueDecider.decide(p, List.of(holder(JobState.AVAILABLE, NOW.minusSeconds(2))), NOW));
    }

    @Test
    void ignoreAndRejectNameTheNewestHolder() {
        UniqueHolder old = holder(JobState.AVAILABLE, NOW.minusSeconds(60));
        UniqueHolder newer = holder(JobState.ACTIVE, NOW.minusSeconds(1));
        assertEquals(newer, ((UniqueDecision.Ignore) UniqueDecider.decide(policy(OnConflict.IGNORE, null, null),
                List.of(old, newer), NOW)).holder());
        assertEquals(newer, ((UniqueDecision.Reject) UniqueDecider.decide(policy(OnConflict.REJECT, null, null),
                List.of(old, newer), NOW)).holder());
    }

    @Test
    void replaceCancelsEveryCountingHolderThatCanStillBeCancelled() {
        UniqueHolder active = holder(JobState.ACTIVE, NOW.minusSeconds(3));
        UniqueHolder done = holder(JobState.COMPLETED, NOW.minusSeconds(2));
        UniquePolicy p = policy(OnConflict.REPLACE, null, Set.of(JobState.ACTIVE, JobState.COMPLETED));
        UniqueDecision.Replace r = (UniqueDecision.Replace) UniqueDecider.decide(p, List.of(active, done), NOW);
        assertEquals(List.of(active), r.cancel());
        assertNull(r.keepRunAt());
    }

    @Test
    void replaceExceptScheduleKeepsAScheduledHoldersTime() {
        UniqueHolder scheduled = holder(JobState.SCHEDULED, NOW.minusSeconds(3));
        UniqueDecision.Replace r = (UniqueDecision.Replace) UniqueDecider.decide(
                policy(OnConflict.REPLACE_EXCEPT_SCHEDULE, null, null), List.of(scheduled), NOW);
        assertEquals(scheduled.runAt(), r.keepRunAt());
        UniqueDecision.Replace plain = (UniqueDecision.Replace) UniqueDecider.decide(
                policy(OnConflict.REPLACE_EXCEPT_SCHEDULE, null, null), List.of(holder(JobState.AVAILABLE, NOW)), NOW);
        assertNull(plain.keepRunAt());
    }
}
