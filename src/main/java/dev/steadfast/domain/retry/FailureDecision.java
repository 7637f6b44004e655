package dev.steadfast.domain.retry;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The outcome {@link RetryDecider} reaches for one failed attempt: retry at a time, discard, or
 * dead-letter. Exactly these three records implement it.
 *
 * <p>Reasons are short, stable, machine-readable strings (the {@code REASON_*} constants) meant for
 * job events, metrics labels and the operator console; they are not localised prose.
 */
public sealed interface FailureDecision
        permits FailureDecision.Retry, FailureDecision.Discard, FailureDecision.DeadLetter {

    /** Attempts are used up (or max_attempts is 0). */
    String REASON_MAX_ATTEMPTS_EXHAUSTED = "max_attempts_exhausted";
    /** The error type matched {@code non_retryable_errors}. */
    String REASON_NON_RETRYABLE_ERROR = "non_retryable_error";
    /** The worker reported {@code retryable: false}. */
    String REASON_WORKER_MARKED_NON_RETRYABLE = "worker_marked_non_retryable";
    /** The handler returned {@code DISCARD}. */
    String REASON_HANDLER_DISCARD = "handler_discard";
    /** The handler returned {@code FAIL}. */
    String REASON_HANDLER_FAIL = "handler_fail";
    /** The handler returned {@code DEAD_LETTER}. */
    String REASON_HANDLER_DEAD_LETTER = "handler_dead_letter";

    /** Make the job available again at {@code at}, which is the failure time plus {@code delay}. */
    record Retry(Instant at, Duration delay) implements FailureDecision {
        public Retry {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("delay must not be negative: " + delay);
            }
        }
    }

    /** Discard the job; it is not kept in the dead-letter set. */
    record Discard(String reason) implements FailureDecision {
        public Discard {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Discard the job and keep it in the dead-letter set for inspection and re-enqueue. */
    record DeadLetter(String reason) implements FailureDecision {
        public DeadLetter {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
