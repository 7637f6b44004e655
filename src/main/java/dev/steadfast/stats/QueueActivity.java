package dev.steadfast.stats;

import java.util.List;

/**
 * One queue's last {@link StatsService#WINDOW_MINUTES} minutes, oldest first: jobs finished per minute (completed
 * or failed for good) and the mean wait of those jobs, from becoming available to their last start, in
 * milliseconds (0 for a minute without a finished job).
 */
public record QueueActivity(String queue, List<Long> finished, List<Long> meanWaitMs) {

    public long totalFinished() {
        return finished.stream().mapToLong(Long::longValue).sum();
    }
}
