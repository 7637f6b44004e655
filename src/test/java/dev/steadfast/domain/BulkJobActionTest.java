package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.JobStateMachine.Operation;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The states each bulk action may touch, as a truth table against the state machine. */
class BulkJobActionTest {

    @Test
    void noBulkActionTouchesAJobAWorkerHolds() {
        for (BulkJobAction a : BulkJobAction.values()) {
            assertFalse(a.sources().contains(JobState.ACTIVE), a.name());
        }
    }

    @Test
    void theTable() {
        assertEquals(EnumSet.of(JobState.SCHEDULED, JobState.AVAILABLE, JobState.PENDING, JobState.RETRYABLE),
                BulkJobAction.CANCEL.sources());
        assertEquals(EnumSet.of(JobState.SCHEDULED, JobState.RETRYABLE, JobState.CANCELLED, JobState.DISCARDED),
                BulkJobAction.RETRY.sources());
        assertEquals(EnumSet.complementOf(EnumSet.of(JobState.ACTIVE)), BulkJobAction.DELETE.sources());
    }

    @Test
    void cancelAndRetryFollowTheStateMachine() {
        for (JobState s : BulkJobAction.CANCEL.sources()) {
            assertTrue(JobStateMachine.sources(Operation.CANCEL).contains(s), s.wire());
        }
        Set<JobState> retry = EnumSet.noneOf(JobState.class);
        retry.addAll(JobStateMachine.sources(Operation.RETRY_NOW));
        retry.addAll(JobStateMachine.sources(Operation.RETRY_DEAD_LETTER));
        retry.addAll(JobStateMachine.sources(Operation.REVIVE));
        assertEquals(retry, BulkJobAction.RETRY.sources());
    }

    @Test
    void aStateFilterNarrowsTheSources() {
        assertEquals(Set.of(JobState.RETRYABLE), BulkJobAction.RETRY.sourcesWithin(JobState.RETRYABLE));
        assertEquals(Set.of(), BulkJobAction.RETRY.sourcesWithin(JobState.AVAILABLE));
        assertEquals(Set.of(), BulkJobAction.DELETE.sourcesWithin(JobState.ACTIVE));
        assertEquals(BulkJobAction.CANCEL.sources(), BulkJobAction.CANCEL.sourcesWithin(null));
    }

    @Test
    void wireNames() {
        assertEquals(Optional.of(BulkJobAction.DELETE), BulkJobAction.fromWire("delete"));
        assertEquals(Optional.empty(), BulkJobAction.fromWire("explode"));
        assertEquals("retry", BulkJobAction.RETRY.wire());
    }
}
