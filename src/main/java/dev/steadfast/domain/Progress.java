package dev.steadfast.domain;

import java.time.Instant;

/**
 * Job progress (ojs-progress.md): a fraction from 0.0 to 1.0 with an optional message, structured data and a
 * checkpoint, reported by the worker of an active job and kept per attempt.
 *
 * <ul>
 *   <li>Out-of-range values are clamped, not refused (5.1): a worker's rounding error never fails its update.</li>
 *   <li>Within one attempt the value never goes down (5.1): a lower report keeps the higher value, while its
 *       message and data still replace the earlier ones.</li>
 *   <li>Each attempt starts without progress (5.3): a report stored for an earlier attempt or run is not shown.</li>
 *   <li>A completed job that reported progress shows 1.0 (8.1); a failed one keeps its last value (8.2).</li>
 * </ul>
 *
 * @param attempt the attempt the report belongs to
 * @param run     the run (a dead-letter retry or revive starts a new one) the report belongs to
 * @param value   null when only data was reported
 */
public record Progress(int attempt, int run, Double value, String message, String dataJson, String checkpointJson,
                       Instant updatedAt) {

    /** {@code v} clamped into [0, 1]; NaN is refused by the caller before it gets here. */
    public static double clamp(double v) {
        return Math.max(0.0, Math.min(1.0, v));
    }

    /** The JavaScript SDK reports a percentage from 0 to 100. */
    public static double fromPercentage(double percentage) {
        return clamp(percentage / 100.0);
    }

    /**
     * The progress to store when a report with {@code reported} arrives for {@code attempt} of {@code run} and
     * {@code previous} is what is stored (null when nothing): the non-decreasing rule within one attempt.
     */
    public static Double merged(Progress previous, int attempt, int run, Double reported) {
        boolean sameAttempt = previous != null && previous.attempt == attempt && previous.run == run;
        if (!sameAttempt || previous.value == null) {
            return reported;
        }
        return reported == null ? previous.value : Math.max(previous.value, reported);
    }

    /**
     * What a reader sees for a job in {@code state} at {@code attempt} of {@code run}: null when the stored report
     * is from an earlier attempt or run (or there is none), 1.0 once the job completed.
     */
    public static Progress visible(Progress stored, JobState state, int attempt, int run) {
        if (stored == null || stored.run != run || stored.attempt != attempt) {
            return null;
        }
        if (state == JobState.COMPLETED && stored.value != null) {
            return new Progress(attempt, run, 1.0, stored.message, stored.dataJson, stored.checkpointJson,
                    stored.updatedAt);
        }
        return stored;
    }
}
