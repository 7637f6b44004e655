package dev.steadfast.stats;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.domain.JobState;
import java.util.function.ToLongFunction;

/**
 * Jobs by state on the wire: one field per {@link JobState} (its wire name, zero when none), then
 * {@code dead_letter}, the dead letters among the discarded ones, when the answer carries it here.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobCounts(long scheduled, long available, long pending, long active, long completed, long retryable,
                        long cancelled, long discarded, Long deadLetter) {

    public static JobCounts of(ToLongFunction<JobState> count, Long deadLetter) {
        return new JobCounts(count.applyAsLong(JobState.SCHEDULED), count.applyAsLong(JobState.AVAILABLE),
                count.applyAsLong(JobState.PENDING), count.applyAsLong(JobState.ACTIVE),
                count.applyAsLong(JobState.COMPLETED), count.applyAsLong(JobState.RETRYABLE),
                count.applyAsLong(JobState.CANCELLED), count.applyAsLong(JobState.DISCARDED), deadLetter);
    }

    public static JobCounts of(StateCounts c, boolean withDeadLetters) {
        return of(s -> c.byState().getOrDefault(s, 0L), withDeadLetters ? c.deadLetters() : null);
    }
}
