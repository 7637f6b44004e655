package dev.steadfast.stats;

import dev.steadfast.domain.JobState;
import java.util.EnumMap;
import java.util.Map;

/**
 * Jobs by state in one queue (or all, when {@code queue} is null), every state present (zero when none), plus the
 * dead letters among the discarded ones (zzz_jobs' countByState).
 */
public record StateCounts(String queue, Map<JobState, Long> byState, long deadLetters) {

    static StateCounts of(String queue, Map<JobState, Long> found, long deadLetters) {
        Map<JobState, Long> all = new EnumMap<>(JobState.class);
        for (JobState s : JobState.values()) {
            all.put(s, found.getOrDefault(s, 0L));
        }
        return new StateCounts(queue, Map.copyOf(all), deadLetters);
    }
}
