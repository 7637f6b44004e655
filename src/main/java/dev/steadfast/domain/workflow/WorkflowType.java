package dev.steadfast.domain.workflow;

import java.util.Locale;
import java.util.Optional;

/** The three workflow primitives of ojs-workflows.md: chain (sequential), group (parallel), batch (group + callbacks). */
public enum WorkflowType {
    CHAIN, GROUP, BATCH;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<WorkflowType> fromWire(String s) {
        for (WorkflowType t : values()) {
            if (t.wire().equals(s)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
