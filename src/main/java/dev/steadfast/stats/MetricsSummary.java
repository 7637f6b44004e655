package dev.steadfast.stats;

import dev.steadfast.store.maintenance.StatsStore;
import java.time.Instant;

/**
 * The admin API's metrics summary (Flare's /v1/metrics/summary): jobs by queue and state (a {@link DepthCounts}
 * snapshot), dead letters with their growth over the last hour and day, and how finished jobs ended over the same
 * windows. A job "failed" when it failed for good (discarded or dead-lettered); attempts that were retried are not
 * failures here (they show as retryable jobs and in each job's error history).
 */
public record MetricsSummary(Instant at, DepthCounts.Snapshot counts, StatsStore.DeadLetterGrowth deadLetters,
                             StatsStore.Finished finished) {

    /** Completed and failed-for-good jobs in one window. */
    public record Window(long completed, long failed) {

        /** failed / (completed + failed); null when nothing finished in the window. */
        public Double failureRate() {
            long total = completed + failed;
            return total == 0 ? null : (double) failed / total;
        }
    }

    public Window lastHour() {
        return new Window(finished.completedHour(), finished.discardedHour() + deadLetters.sinceHour());
    }

    public Window lastDay() {
        return new Window(finished.completedDay(), finished.discardedDay() + deadLetters.sinceDay());
    }
}
