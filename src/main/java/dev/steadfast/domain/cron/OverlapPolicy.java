package dev.steadfast.domain.cron;

import java.util.Locale;

/**
 * What an occurrence does while the schedule's previous run has not finished (ojs-cron.md section 6). A run
 * counts as unfinished from enqueue until it reaches a terminal state: waiting, scheduled, active and retrying
 * alike, so {@code skip} never piles occurrences up in a queue nobody drains.
 */
public enum OverlapPolicy {
    /** Skip the occurrence (recorded with its reason); the default (ojs-cron.md 6.2). */
    SKIP,
    /** Enqueue regardless; runs may overlap. */
    ALLOW,
    /** Cancel the unfinished previous run, then enqueue. */
    CANCEL_PREVIOUS,
    /**
     * Enqueue every occurrence but never run two at once: one that fires while an earlier run is unfinished is
     * held (pending) and released when the run before it has finished ({@link QueuedRuns}).
     */
    ENQUEUE;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The policy named {@code s}, or null when there is none by that name. */
    public static OverlapPolicy of(String s) {
        for (OverlapPolicy p : values()) {
            if (p.wire().equals(s)) {
                return p;
            }
        }
        return null;
    }
}
