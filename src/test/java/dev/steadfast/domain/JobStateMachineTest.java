package dev.steadfast.domain;

import static dev.steadfast.domain.JobState.ACTIVE;
import static dev.steadfast.domain.JobState.AVAILABLE;
import static dev.steadfast.domain.JobState.CANCELLED;
import static dev.steadfast.domain.JobState.COMPLETED;
import static dev.steadfast.domain.JobState.DISCARDED;
import static dev.steadfast.domain.JobState.PENDING;
import static dev.steadfast.domain.JobState.RETRYABLE;
import static dev.steadfast.domain.JobState.SCHEDULED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.JobStateMachine.Operation;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The transition table's truth table: every (operation, from, to) triple is checked against the list of
 * transitions ojs-core.md section 6.3 allows, so adding or removing a transition shows up here.
 */
class JobStateMachineTest {

    /** The complete list of allowed transitions, written out independently of the implementation. */
    private static final Set<String> ALLOWED = Set.of(
            "PROMOTE:scheduled->available", "PROMOTE:retryable->available",
            "ACTIVATE:pending->available",
            "FETCH:available->active", "FETCH:scheduled->active", "FETCH:retryable->active",
            "ACK:active->completed",
            "FAIL:active->retryable", "FAIL:active->discarded", "FAIL:active->available",
            "HEARTBEAT:active->active",
            "SNOOZE:active->scheduled", "SNOOZE:active->available",
            "EXPIRE_LEASE:active->available", "EXPIRE_LEASE:active->retryable", "EXPIRE_LEASE:active->discarded",
            "EXPIRE:available->discarded", "EXPIRE:scheduled->discarded", "EXPIRE:retryable->discarded",
            "EXPIRE:pending->discarded",
            "CANCEL:scheduled->cancelled", "CANCEL:available->cancelled", "CANCEL:pending->cancelled",
            "CANCEL:active->cancelled", "CANCEL:retryable->cancelled",
            "RETRY_DEAD_LETTER:discarded->available",
            "RETRY_NOW:scheduled->available", "RETRY_NOW:retryable->available",
            "REVIVE:cancelled->available", "REVIVE:discarded->available",
            "DISCARD:retryable->discarded");

    @Test
    void everyTripleMatchesTheTable() {
        Set<String> seen = new HashSet<>();
        for (Operation op : Operation.values()) {
            for (JobState from : JobState.values()) {
                for (JobState to : JobState.values()) {
                    String key = op + ":" + from.wire() + "->" + to.wire();
                    boolean expected = ALLOWED.contains(key);
                    assertEquals(expected, JobStateMachine.allowed(op, from, to), key);
                    if (expected) {
                        seen.add(key);
                    }
                }
            }
        }
        assertEquals(ALLOWED, seen);
    }

    @Test
    void terminalStatesHaveNoWayOutButAnOperatorRetry() {
        for (JobState terminal : Set.of(COMPLETED, CANCELLED, DISCARDED)) {
            assertTrue(terminal.terminal());
            for (Operation op : Operation.values()) {
                boolean leaves = JobStateMachine.sources(op).contains(terminal);
                boolean operatorRetry = op == Operation.RETRY_DEAD_LETTER && terminal == DISCARDED
                        || op == Operation.REVIVE && terminal != COMPLETED;
                assertEquals(operatorRetry, leaves, op + " from " + terminal);
            }
        }
    }

    @Test
    void checkRefusesWithAConflictNamingTheState() {
        OjsException e = assertThrows(OjsException.class,
                () -> JobStateMachine.check(Operation.ACK, AVAILABLE, "j1"));
        assertEquals(ErrorCode.CONFLICT, e.code());
        assertEquals("available", e.details().get("current_state"));
        assertEquals("j1", e.details().get("job_id"));
        assertThrows(OjsException.class, () -> JobStateMachine.check(Operation.CANCEL, COMPLETED, "j1"));
        JobStateMachine.check(Operation.ACK, ACTIVE, "j1");
        JobStateMachine.check(Operation.CANCEL, PENDING, "j1");
        JobStateMachine.check(Operation.PROMOTE, SCHEDULED, "j1");
        JobStateMachine.check(Operation.FETCH, RETRYABLE, "j1");
    }

    @Test
    void wireNamesRoundTrip() {
        for (JobState s : JobState.values()) {
            assertEquals(s, JobState.fromWire(s.wire()).orElseThrow());
        }
        assertTrue(JobState.fromWire("Active").isEmpty());
        assertTrue(JobState.fromWire(null).isEmpty());
    }
}
