package dev.steadfast.domain.cron;

import java.time.Duration;
import java.time.Instant;

/**
 * What one due occurrence of a schedule does, decided without I/O from the stored next fire time, the state of
 * the previous run and the clock.
 *
 * @param fireAt         the occurrence acted on (the stored next fire time): the exactly-once key with the name
 * @param nextFireAt     the schedule's following occurrence, strictly after now; null when it never fires again
 * @param enqueue        whether a job is enqueued for this occurrence
 * @param cancelPrevious whether the unfinished previous run is cancelled first
 * @param skipReason     why nothing is enqueued (null when enqueuing)
 */
public record CronDecision(Instant fireAt, Instant nextFireAt, boolean enqueue, boolean cancelPrevious,
                           String skipReason) {

    /**
     * Decides the occurrence due at {@code due} (at or before {@code now}).
     *
     * @param previousUnfinished the state of the previous run when it has not finished, else null
     * @param grace              how late an occurrence may be found and still count as on time
     */
    public static CronDecision decide(Instant due, FireTimes times, Instant now, OverlapPolicy overlap,
                                      String previousUnfinished, Duration grace, MissedOccurrences missed) {
        if (due.isAfter(now)) {
            throw new IllegalArgumentException("occurrence " + due + " is not due at " + now);
        }
        Instant next = times.nextAfter(now).orElse(null);
        boolean late = due.plus(grace).isBefore(now);
        if (late && missed == MissedOccurrences.SKIP) {
            return new CronDecision(due, next, false, false, "missed: found " + Duration.between(due, now).toSeconds()
                    + " s after its time (steadfast.cron.missed=skip)");
        }
        if (previousUnfinished != null && overlap == OverlapPolicy.SKIP) {
            return new CronDecision(due, next, false, false,
                    "overlap: the previous run is still " + previousUnfinished);
        }
        boolean cancel = previousUnfinished != null && overlap == OverlapPolicy.CANCEL_PREVIOUS;
        return new CronDecision(due, next, true, cancel, null);
    }
}
