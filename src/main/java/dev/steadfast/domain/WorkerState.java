package dev.steadfast.domain;

import java.util.Locale;
import java.util.Optional;

/**
 * The lifecycle a worker reports in its heartbeats (ojs-graceful-shutdown.md 5, ojs-worker-protocol.md): running,
 * then on shutdown quiet (stops fetching), drain (finishes active jobs) and terminate. Only a running worker is
 * handed new jobs (5.1: "the backend MUST NOT assign new jobs to a quiet worker").
 */
public enum WorkerState {
    RUNNING, QUIET, DRAIN, TERMINATE;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean acceptsWork() {
        return this == RUNNING;
    }

    /** The state named {@code s}; {@code draining} and {@code shutting_down} are read as drain. */
    public static Optional<WorkerState> fromWire(String s) {
        if (s == null) {
            return Optional.empty();
        }
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "running" -> Optional.of(RUNNING);
            case "quiet" -> Optional.of(QUIET);
            case "drain", "draining", "shutting_down" -> Optional.of(DRAIN);
            case "terminate", "terminated", "stopping" -> Optional.of(TERMINATE);
            default -> Optional.empty();
        };
    }
}
