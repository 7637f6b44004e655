package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class JobExpiryTest {

    static final Instant T = Instant.parse("2026-03-01T10:00:00Z");

    @Test
    void aJobExpiresAtItsDeadlineNotBeforeAndNeverWithoutOne() {
        assertFalse(JobExpiry.expired(null, T));
        assertFalse(JobExpiry.expired(T, T.minusNanos(1000)));
        assertTrue(JobExpiry.expired(T, T));
        assertTrue(JobExpiry.expired(T, T.plusSeconds(1)));
        assertTrue(JobExpiry.reason(T, JobState.AVAILABLE, T.plusSeconds(1)).contains("available"));
    }

    @Test
    void onlyAJobNotStartedYetIsDiscardedForItsDeadline() {
        assertEquals(EnumSet.of(JobState.AVAILABLE, JobState.SCHEDULED, JobState.RETRYABLE, JobState.PENDING),
                JobExpiry.expiresFrom());
        for (JobState s : JobState.values()) {
            assertEquals(JobExpiry.expiresFrom().contains(s), JobExpiry.due(s, T, T), s.wire());
            assertFalse(JobExpiry.due(s, T, T.minusMillis(1)), s.wire());
            assertFalse(JobExpiry.due(s, null, T), s.wire());
        }
    }

    @Test
    void theReasonWritesItsInstantsAsTheWireDoes() {
        assertEquals("Expired: the job's expires_at (2026-03-01T10:00:00.000Z) passed while it was scheduled;"
                        + " discarded at 2026-03-01T10:00:01.234Z instead of being handed to a worker.",
                JobExpiry.reason(T, JobState.SCHEDULED, T.plusMillis(1234).plusNanos(999_999)));
    }
}
