package dev.steadfast.domain.workflow;

import dev.steadfast.domain.JobState;
import java.util.Locale;
import java.util.Optional;

/**
 * What a finished member job means to its workflow: it completed, it failed for good (discarded, dead letter
 * included: its retries are exhausted, ojs-workflows.md 9.1), or it was cancelled. A job still retryable is not
 * finished.
 */
public enum Outcome {
    COMPLETED, FAILED, CANCELLED;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The outcome of a job in {@code state}, empty while it may still run. */
    public static Optional<Outcome> of(JobState state) {
        return switch (state) {
            case COMPLETED -> Optional.of(COMPLETED);
            case DISCARDED -> Optional.of(FAILED);
            case CANCELLED -> Optional.of(CANCELLED);
            default -> Optional.empty();
        };
    }

    public static Optional<Outcome> fromWire(String s) {
        for (Outcome t : values()) {
            if (t.wire().equals(s)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
