package dev.steadfast.domain.workflow;

import java.util.Locale;
import java.util.Optional;

/** The part a job plays in a workflow: a step (chain step, group or batch job) or one of a batch's callbacks. */
public enum MemberRole {
    STEP, ON_COMPLETE, ON_SUCCESS, ON_FAILURE;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<MemberRole> fromWire(String s) {
        for (MemberRole t : values()) {
            if (t.wire().equals(s)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
