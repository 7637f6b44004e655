package dev.steadfast.stats;

import dev.steadfast.domain.JobState;
import java.time.Instant;
import java.util.Map;

/**
 * One queue's depth: jobs per state, dead letters (a subset of discarded), the pause switch and when the oldest
 * available job became available (null when none is waiting).
 */
public record QueueStats(String name, boolean paused, Instant pausedAt, Instant createdAt, Map<JobState, Long> counts,
                         long deadLetters, Instant oldestAvailableAt) {

    public long count(JobState s) {
        return counts.getOrDefault(s, 0L);
    }

    public long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }
}
