package dev.steadfast.work;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.domain.JobState;
import dev.steadfast.http.Timestamps;
import dev.steadfast.model.JobRow;

/**
 * What a FAIL, NACK or SNOOZE left the job in: its state and attempts, then by state when it runs next
 * (retryable: {@code next_attempt_at}, {@code retry_delay_ms}; available or scheduled after a snooze:
 * {@code next_attempt_at}, {@code snoozes}) or how it ended (discarded: {@code discarded_at},
 * {@code completed_at}, {@code dead_letter}).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
record JobOutcome(String id, String jobId, String state, int attempt, int maxAttempts, String nextAttemptAt,
                  Long retryDelayMs, String discardedAt, String completedAt, Boolean deadLetter, Integer snoozes) {

    static JobOutcome of(JobRow row) {
        String id = row.id().toString();
        JobState s = row.state();
        boolean retryable = s == JobState.RETRYABLE;
        boolean discarded = s == JobState.DISCARDED;
        boolean snoozed = s == JobState.AVAILABLE || s == JobState.SCHEDULED;
        return new JobOutcome(id, id, s.wire(), row.attempt(), row.maxAttempts(),
                retryable || snoozed ? Timestamps.format(row.runAt()) : null,
                retryable ? row.retryDelayMs() : null,
                discarded ? Timestamps.format(row.discardedAt()) : null,
                discarded ? Timestamps.format(row.completedAt()) : null,
                discarded ? row.deadLetter() : null,
                snoozed ? row.snoozes() : null);
    }
}
