package dev.steadfast.domain.retry;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Decides what happens after a failed attempt, applying the OJS precedence rules
 * (retry spec sections 7.2, 6.3, 2.2 and 9.2).
 *
 * <p>Order: handler {@code DISCARD} or {@code FAIL} discards and {@code DEAD_LETTER} dead-letters,
 * regardless of the policy (RET-08). Otherwise ({@code RETRY} or no code) the policy applies:
 * a worker-reported error marked {@code retryable: false} or matching {@code non_retryable_errors}
 * goes straight to the exhaustion action (RET-07); then, if {@code failedAttempt >= max_attempts}
 * (or max_attempts is 0), the exhaustion action applies (RET-01, RET-17); otherwise the job retries
 * after {@link Backoff#delay}. So even an explicit {@code RETRY} never exceeds max_attempts.
 *
 * <p>Lease-expiry failures skip the non-retryable checks (spec 9.2: timeouts are always retryable
 * unless attempts are exhausted) but still consume an attempt (RET-12).
 *
 * <p>Pure: the clock and the random source are parameters; nothing is stored.
 */
public final class RetryDecider {

    private RetryDecider() {
    }

    /**
     * @param failedAttempt 1-based number of the attempt that just failed
     * @param now           when the failure was recorded; a retry is due at {@code now + delay}
     */
    public static FailureDecision decide(RetryPolicy p, int failedAttempt, Failure f, Instant now,
            RandomGenerator rnd) {
        Objects.requireNonNull(p, "policy");
        Objects.requireNonNull(f, "failure");
        Objects.requireNonNull(now, "now");
        if (failedAttempt < 1) {
            throw new IllegalArgumentException("failedAttempt is 1-based, got " + failedAttempt);
        }
        HandlerCode code = f.handlerCode() == null ? HandlerCode.RETRY : f.handlerCode();
        switch (code) {
            case DISCARD:
                return new FailureDecision.Discard(FailureDecision.REASON_HANDLER_DISCARD);
            case FAIL:
                return new FailureDecision.Discard(FailureDecision.REASON_HANDLER_FAIL);
            case DEAD_LETTER:
                return new FailureDecision.DeadLetter(FailureDecision.REASON_HANDLER_DEAD_LETTER);
            case RETRY:
            default:
                return underPolicy(p, failedAttempt, f, now, rnd);
        }
    }

    private static FailureDecision underPolicy(RetryPolicy p, int failedAttempt, Failure f, Instant now,
            RandomGenerator rnd) {
        if (!f.leaseExpiry()) {
            if (Boolean.FALSE.equals(f.retryable())) {
                return exhausted(p, FailureDecision.REASON_WORKER_MARKED_NON_RETRYABLE);
            }
            if (ErrorMatcher.matches(p.nonRetryableErrors(), f.errorType())) {
                return exhausted(p, FailureDecision.REASON_NON_RETRYABLE_ERROR);
            }
        }
        if (p.maxAttempts() == 0 || failedAttempt >= p.maxAttempts()) {
            return exhausted(p, FailureDecision.REASON_MAX_ATTEMPTS_EXHAUSTED);
        }
        Duration delay = Backoff.delay(p, failedAttempt, Objects.requireNonNull(rnd, "rnd"));
        return new FailureDecision.Retry(now.plus(delay), delay);
    }

    private static FailureDecision exhausted(RetryPolicy p, String reason) {
        return p.onExhaustion() == OnExhaustion.DEAD_LETTER
                ? new FailureDecision.DeadLetter(reason)
                : new FailureDecision.Discard(reason);
    }
}
