package dev.steadfast.domain.cron;

import java.time.Duration;
import java.time.Instant;

/**
 * What one due occurrence of a schedule does, decided without I/O from the stored next fire time, the state of
 * the previous run, the occurrences already held behind it and the clock.
 *
 * @param fireAt         the occurrence acted on (the stored next fire time): the exactly-once key with the name
 * @param nextFireAt     the schedule's following occurrence, strictly after now; null when it never fires again
 * @param enqueue        whether a job is enqueued for this occurrence
 * @param hold           (enqueue policy) whether that job is held (pending) until the run before it finishes
 * @param cancelPrevious whether the unfinished previous run is cancelled first
 * @param skipReason     why nothing is enqueued (null when enqueuing)
 * @param queued         how many occurrences of the schedule are held once this one is acted on
 */
public record CronDecision(Instant fireAt, Instant nextFireAt, boolean enqueue, boolean hold, boolean cancelPrevious,
                           String skipReason, int queued) {

    /** Whether the queue of held occurrences calls for the spec's warning (ojs-cron.md 6.1). */
    public boolean warn() {
        return QueuedRuns.warns(queued);
    }

    /**
     * Decides the occurrence due at {@code due} (at or before {@code now}).
     *
     * @param previousUnfinished the state of the previous run when it has not finished, else null
     * @param held               how many earlier occurrences are held, waiting for their turn (enqueue policy)
     * @param grace              how late an occurrence may be found and still count as on time
     */
    public static CronDecision decide(Instant due, FireTimes times, Instant now, OverlapPolicy overlap,
                                      String previousUnfinished, int held, Duration grace, MissedOccurrences missed) {
        if (due.isAfter(now)) {
            throw new IllegalArgumentException("occurrence " + due + " is not due at " + now);
        }
        if (held < 0) {
            throw new IllegalArgumentException("held occurrences cannot be negative: " + held);
        }
        Instant next = times.nextAfter(now).orElse(null);
        boolean late = due.plus(grace).isBefore(now);
        if (late && missed == MissedOccurrences.SKIP) {
            return new CronDecision(due, next, false, false, false, "missed: found "
                    + Duration.between(due, now).toSeconds() + " s after its time (steadfast.cron.missed=skip)", held);
        }
        if (previousUnfinished != null && overlap == OverlapPolicy.SKIP) {
            return new CronDecision(due, next, false, false, false,
                    "overlap: the previous run is still " + previousUnfinished, held);
        }
        // Behind held occurrences a new one waits too, even when the latest run finished (cancelled meanwhile).
        boolean hold = overlap == OverlapPolicy.ENQUEUE && (previousUnfinished != null || held > 0);
        boolean cancel = previousUnfinished != null && overlap == OverlapPolicy.CANCEL_PREVIOUS;
        return new CronDecision(due, next, true, hold, cancel, null, hold ? held + 1 : held);
    }
}
