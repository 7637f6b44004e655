package dev.steadfast.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.OjsException;
import dev.steadfast.model.StateAndOwner;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A refusal explained from the job as the refusing statement saw it, by the guard's own rules. */
class RefusalsTest {

    private static final UUID ID = UUID.fromString("0193b3a0-0000-7000-8000-000000000001");
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    @Test
    void noJobIsNotFound() {
        assertEquals(ErrorCode.NOT_FOUND, Refusals.of(ID, Operation.ACK, null, "w1", NOW).code());
    }

    @Test
    void aStateTheOperationCannotStartFromIsNamed() {
        OjsException e = Refusals.of(ID, Operation.ACK, new StateAndOwner(JobState.COMPLETED, null, null), "w1", NOW);
        assertEquals(ErrorCode.CONFLICT, e.code());
        assertEquals("completed", e.details().get("current_state"));
    }

    @Test
    void aLeaseThatRanOutIsNamedEvenBeforeTheReaperSawIt() {
        OjsException e = Refusals.of(ID, Operation.ACK, new StateAndOwner(JobState.ACTIVE, "w1", NOW), "w1", NOW);
        assertEquals(ErrorCode.CONFLICT, e.code());
        assertEquals("2026-11-29T10:00:00.000Z", e.details().get("lease_expires_at"));
    }

    @Test
    void anotherHolderIsNamed() {
        OjsException e = Refusals.of(ID, Operation.ACK,
                new StateAndOwner(JobState.ACTIVE, "w2", NOW.plusSeconds(30)), "w1", NOW);
        assertEquals(ErrorCode.CONFLICT, e.code());
        assertEquals("w2", e.details().get("lease_owner"));
    }

    /** Facts the guard would have accepted explain nothing: the job changed after the snapshot, read it again. */
    @Test
    void factsThatAllowTheOperationExplainNothing() {
        StateAndOwner held = new StateAndOwner(JobState.ACTIVE, "w1", NOW.plusSeconds(30));
        assertNull(Refusals.of(ID, Operation.ACK, held, "w1", NOW));
        assertNull(Refusals.of(ID, Operation.ACK, held, null, NOW), "a request naming no worker may answer for any");
    }
}
