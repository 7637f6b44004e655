package dev.steadfast.domain.cron;

import java.util.Locale;

/**
 * What happens to occurrences that fell due while no instance was running (or the database was unreachable), i.e.
 * found more than the grace period after their time. In both cases the schedule then moves on to its first
 * occurrence after now, so a long outage never produces a burst of jobs (ojs-cron.md 7.3: at most one catch-up).
 */
public enum MissedOccurrences {
    /** Enqueue one catch-up run for the earliest missed occurrence (ojs-cron.md 7.3); the default. */
    FIRE_ONCE,
    /** Enqueue nothing for missed occurrences; record the earliest as skipped with reason "missed". */
    SKIP;

    /** The configuration's spelling: {@code fire-once} or {@code skip}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
