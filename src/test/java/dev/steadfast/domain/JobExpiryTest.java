package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
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
}
