package dev.steadfast.domain.retry;

import java.time.Duration;
import java.util.Objects;

/**
 * One row of a retry-schedule preview (see {@link Backoff#schedule}): the delay that precedes
 * {@code attempt}, which is retry number {@code retry = attempt - 1}.
 *
 * <p>{@code delay} is the capped delay before jitter; {@code range} is where the actual,
 * jittered delay will fall. Operator-console data only; decisions use {@link RetryDecider}.
 */
public record ScheduleRow(int attempt, int retry, Duration delay, DelayRange range) {

    public ScheduleRow {
        if (retry < 1 || attempt != retry + 1) {
            throw new IllegalArgumentException("need retry >= 1 and attempt == retry + 1, got attempt "
                    + attempt + ", retry " + retry);
        }
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(range, "range");
    }
}
