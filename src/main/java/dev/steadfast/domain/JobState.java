package dev.steadfast.domain;

import java.util.Locale;
import java.util.Optional;

/**
 * The eight OJS job states (ojs-core.md section 6.1) with their wire names.
 *
 * <p>{@code completed}, {@code cancelled} and {@code discarded} are terminal: the only way out of one is an
 * operator's retry of a {@code discarded} or {@code cancelled} job as a new run (see {@link JobStateMachine}).
 */
public enum JobState {
    SCHEDULED, AVAILABLE, PENDING, ACTIVE, COMPLETED, RETRYABLE, CANCELLED, DISCARDED;

    private final String wire = name().toLowerCase(Locale.ROOT);

    /** The state's name on the wire and in the database. */
    public String wire() {
        return wire;
    }

    public boolean terminal() {
        return this == COMPLETED || this == CANCELLED || this == DISCARDED;
    }

    /** Reads a wire name; empty for anything that is not one of the eight states. */
    public static Optional<JobState> fromWire(String s) {
        if (s == null) {
            return Optional.empty();
        }
        for (JobState st : values()) {
            if (st.wire.equals(s)) {
                return Optional.of(st);
            }
        }
        return Optional.empty();
    }
}
