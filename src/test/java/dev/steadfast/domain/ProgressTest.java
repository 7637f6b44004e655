package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ProgressTest {

    private static Progress at(int attempt, int run, Double value) {
        return new Progress(attempt, run, value, "m", null, null, Instant.EPOCH);
    }

    @Test
    void outOfRangeValuesAreClamped() {
        assertEquals(1.0, Progress.clamp(1.5));
        assertEquals(0.0, Progress.clamp(-0.2));
        assertEquals(0.47, Progress.clamp(0.47));
        assertEquals(0.5, Progress.fromPercentage(50));
        assertEquals(1.0, Progress.fromPercentage(250));
    }

    @Test
    void withinAnAttemptProgressNeverGoesDown() {
        assertEquals(0.8, Progress.merged(at(1, 1, 0.8), 1, 1, 0.3));
        assertEquals(0.9, Progress.merged(at(1, 1, 0.8), 1, 1, 0.9));
        assertEquals(0.8, Progress.merged(at(1, 1, 0.8), 1, 1, null), "a data-only report keeps the value");
        assertEquals(0.3, Progress.merged(at(1, 1, null), 1, 1, 0.3));
    }

    @Test
    void aNewAttemptOrRunStartsAfresh() {
        assertEquals(0.1, Progress.merged(at(1, 1, 0.8), 2, 1, 0.1));
        assertEquals(0.1, Progress.merged(at(3, 1, 0.8), 1, 2, 0.1));
        assertEquals(0.2, Progress.merged(null, 1, 1, 0.2));
        assertNull(Progress.visible(at(1, 1, 0.8), JobState.ACTIVE, 2, 1), "a retry shows no progress yet");
        assertNull(Progress.visible(at(1, 1, 0.8), JobState.AVAILABLE, 1, 2), "nor does a new run");
        assertNull(Progress.visible(null, JobState.ACTIVE, 1, 1));
    }

    @Test
    void completionShowsOneAndFailureKeepsTheLastValue() {
        assertEquals(1.0, Progress.visible(at(1, 1, 0.87), JobState.COMPLETED, 1, 1).value());
        assertEquals(0.73, Progress.visible(at(1, 1, 0.73), JobState.RETRYABLE, 1, 1).value());
        assertEquals(0.73, Progress.visible(at(1, 1, 0.73), JobState.DISCARDED, 1, 1).value());
        assertNull(Progress.visible(at(1, 1, null), JobState.COMPLETED, 1, 1).value(), "data only stays data only");
    }
}
