package dev.steadfast.domain.workflow;

import dev.steadfast.domain.JobState;
import java.util.Locale;
import java.util.Optional;

/**
 * A workflow's lifecycle state (ojs-workflows.md 8.1). Steadfast creates workflows {@code running}: the first
 * jobs are enqueued in the creating transaction. Only a nested workflow that waits for its turn (a chain step
 * after the first, or inside such a step) is {@code pending} until its outer workflow starts it.
 */
public enum WorkflowState {
    PENDING, RUNNING, COMPLETED, FAILED, CANCELLED;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean terminal() {
        return this == COMPLETED || this == FAILED || this == CANCELLED;
    }

    /**
     * The job state a nested workflow stands for as a member of its outer workflow (ojs-workflows.md 10.4: the
     * outer one treats it as it treats a job): pending while it waits, active while it runs, completed, discarded
     * (failed: an outcome of failed) or cancelled.
     */
    public JobState asMemberState() {
        return switch (this) {
            case PENDING -> JobState.PENDING;
            case RUNNING -> JobState.ACTIVE;
            case COMPLETED -> JobState.COMPLETED;
            case FAILED -> JobState.DISCARDED;
            case CANCELLED -> JobState.CANCELLED;
        };
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
