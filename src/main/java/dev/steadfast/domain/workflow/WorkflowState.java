package dev.steadfast.domain.workflow;

import java.util.Optional;

/**
 * A workflow's lifecycle state (ojs-workflows.md 8.1). Steadfast creates workflows {@code running}: the first
 * jobs are enqueued in the creating transaction, so {@code pending} is never observed.
 */
public enum WorkflowState {
    PENDING, RUNNING, COMPLETED, FAILED, CANCELLED;

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public boolean terminal() {
        return this == COMPLETED || this == FAILED || this == CANCELLED;
    }

    public static Optional<WorkflowState> fromWire(String s) {
        for (WorkflowState t : values()) {
            if (t.wire().equals(s)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
