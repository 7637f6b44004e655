package dev.steadfast.domain.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CheckpointRulesTest {

    private static final Instant NOW = Instant.parse("2026-11-29T06:00:00Z");

    @Test
    void aFinishedJobShowsNoCheckpoint() {
        for (JobState s : JobState.values()) {
            assertEquals(!s.terminal(), CheckpointRules.shown(s), s.wire());
        }
    }

    @Test
    void theLimitIsOneMebibyteOfJson() {
        CheckpointRules.checkSize(CheckpointRules.MAX_BYTES);
        OjsException e = assertThrows(OjsException.class, () -> CheckpointRules.checkSize(CheckpointRules.MAX_BYTES + 1));
        assertEquals(ErrorCode.PAYLOAD_TOO_LARGE, e.code());
        assertEquals(1_048_576L, e.details().get("limit_bytes"));
        assertEquals(1_048_577L, e.details().get("received_bytes"));
    }

    @Test
    void refusalsSayWhy() {
        OjsException notActive = CheckpointRules.refusal("j", JobState.AVAILABLE, null, null, null, NOW);
        assertEquals(ErrorCode.CONFLICT, notActive.code());
        assertEquals("available", notActive.details().get("current_state"));
        assertFalse(notActive.details().containsKey("reason"));
        assertEquals("lease_expired", CheckpointRules.refusal("j", JobState.ACTIVE, "w", NOW, "w", NOW).details()
                .get("reason"));
        OjsException other = CheckpointRules.refusal("j", JobState.ACTIVE, "w1", NOW.plusSeconds(5), "w2", NOW);
        assertEquals("not_lease_holder", other.details().get("reason"));
        assertTrue(other.getMessage().contains("another worker"));
    }
}
