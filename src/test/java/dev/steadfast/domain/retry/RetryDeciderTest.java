package dev.steadfast.domain.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Precedence of handler codes, worker flags, non_retryable_errors, lease expiry and max_attempts. */
class RetryDeciderTest {

    private static final Instant NOW = Instant.parse("2026-02-12T10:30:00Z");
    private static final RetryTestSupport.FixedRandom MID = new RetryTestSupport.FixedRandom(0.5);

    /** 3 attempts, no jitter, 1s/2s delays, dead-letter on exhaustion, "auth.*" non-retryable. */
    private static final RetryPolicy DEAD_LETTER_POLICY = new RetryPolicy(3, Duration.ofSeconds(1), 2.0,
            Duration.ofMinutes(5), false, List.of("auth.*"), OnExhaustion.DEAD_LETTER, BackoffStrategy.EXPONENTIAL);
    private static final RetryPolicy DISCARD_POLICY = new RetryPolicy(3, Duration.ofSeconds(1), 2.0,
            Duration.ofMinutes(5), false, List.of("auth.*"), OnExhaustion.DISCARD, BackoffStrategy.EXPONENTIAL);

    private static FailureDecision decide(RetryPolicy p, int attempt, Failure f) {
        return RetryDecider.decide(p, attempt, f, NOW, MID);
    }

    @Test
    @DisplayName("DISCARD discards on the first attempt even with a dead_letter policy")
    void handlerDiscard() {
        for (RetryPolicy p : List.of(DEAD_LETTER_POLICY, DISCARD_POLICY)) {
            assertEquals(new FailureDecision.Discard("handler_discard"),
                    decide(p, 1, Failure.withCode("x.y", HandlerCode.DISCARD)));
            assertEquals(new FailureDecision.Discard("handler_discard"),
                    decide(p, 3, Failure.withCode("auth.z", HandlerCode.DISCARD)));
        }
    }

    @Test
    @DisplayName("FAIL discards with its own reason, even with a dead_letter policy")
    void handlerFail() {
        assertEquals(new FailureDecision.Discard("handler_fail"),
                decide(DEAD_LETTER_POLICY, 1, Failure.withCode("x.y", HandlerCode.FAIL)));
    }

    @Test
    @DisplayName("DEAD_LETTER dead-letters even with a discard policy and attempts left")
    void handlerDeadLetter() {
        assertEquals(new FailureDecision.DeadLetter("handler_dead_letter"),
                decide(DISCARD_POLICY, 1, Failure.withCode("x.y", HandlerCode.DEAD_LETTER)));
        assertEquals(new FailureDecision.DeadLetter("handler_dead_letter"),
                decide(DISCARD_POLICY.withMaxAttempts(0), 1, Failure.withCode("x.y", HandlerCode.DEAD_LETTER)));
    }

    @Test
    @DisplayName("RETRY and no code behave identically: retry with backoff while attempts remain")
    void handlerRetryAndNoCode() {
        for (HandlerCode code : new HandlerCode[] {HandlerCode.RETRY, null}) {
            Failure f = new Failure("x.y", code, null, false);
            assertEquals(new FailureDecision.Retry(NOW.plusSeconds(1), Duration.ofSeconds(1)), decide(DISCARD_POLICY, 1, f));
            assertEquals(new FailureDecision.Retry(NOW.plusSeconds(2), Duration.ofSeconds(2)), decide(DISCARD_POLICY, 2, f));
            assertEquals(new FailureDecision.Discard("max_attempts_exhausted"), decide(DISCARD_POLICY, 3, f));
            assertEquals(new FailureDecision.DeadLetter("max_attempts_exhausted"), decide(DEAD_LETTER_POLICY, 3, f));
        }
    }

    @Test
    @DisplayName("an explicit RETRY cannot exceed max_attempts, nor beat non_retryable_errors")
    void explicitRetryStillObeysThePolicy() {
        assertEquals(new FailureDecision.DeadLetter("max_attempts_exhausted"),
                decide(DEAD_LETTER_POLICY, 5, Failure.withCode("x.y", HandlerCode.RETRY)));
        assertEquals(new FailureDecision.DeadLetter("non_retryable_error"),
                decide(DEAD_LETTER_POLICY, 1, Failure.withCode("auth.expired", HandlerCode.RETRY)));
    }

    @Test
    void nonRetryableErrorGoesToTheExhaustionAction() {
        assertEquals(new FailureDecision.Discard("non_retryable_error"), decide(DISCARD_POLICY, 1, Failure.error("auth.forbidden")));
        assertEquals(new FailureDecision.DeadLetter("non_retryable_error"), decide(DEAD_LETTER_POLICY, 1, Failure.error("auth.forbidden")));
    }

    @Test
    void workerMarkedNonRetryable() {
        Failure f = new Failure("db.deadlock", null, Boolean.FALSE, false);
        assertEquals(new FailureDecision.DeadLetter("worker_marked_non_retryable"), decide(DEAD_LETTER_POLICY, 1, f));
        Failure stillRetryable = new Failure("auth.forbidden", null, Boolean.TRUE, false);
        assertEquals(new FailureDecision.DeadLetter("non_retryable_error"), decide(DEAD_LETTER_POLICY, 1, stillRetryable),
                "retryable=true does not override the policy's list");
    }

    @Test
    @DisplayName("lease expiry ignores non_retryable_errors and retryable=false but consumes attempts")
    void leaseExpiry() {
        Failure matching = Failure.leaseExpired("auth.timeout");
        assertEquals(new FailureDecision.Retry(NOW.plusSeconds(1), Duration.ofSeconds(1)), decide(DEAD_LETTER_POLICY, 1, matching));
        Failure flagged = new Failure("auth.timeout", null, Boolean.FALSE, true);
        assertEquals(new FailureDecision.Retry(NOW.plusSeconds(2), Duration.ofSeconds(2)), decide(DEAD_LETTER_POLICY, 2, flagged));
        assertEquals(new FailureDecision.DeadLetter("max_attempts_exhausted"), decide(DEAD_LETTER_POLICY, 3, matching));
    }

    @Test
    void maxAttemptsZeroAndOneAreTerminalOnFirstFailure() {
        assertEquals(new FailureDecision.Discard("max_attempts_exhausted"),
                decide(DISCARD_POLICY.withMaxAttempts(0), 1, Failure.error("x.y")));
        assertEquals(new FailureDecision.DeadLetter("max_attempts_exhausted"),
                decide(DEAD_LETTER_POLICY.withMaxAttempts(1), 1, Failure.error("x.y")));
    }

    @ParameterizedTest
    @EnumSource(HandlerCode.class)
    void fromWireIsExactAndCaseSensitive(HandlerCode code) {
        assertEquals(code, HandlerCode.fromWire(code.name()).orElseThrow());
        assertEquals(Optional.empty(), HandlerCode.fromWire(code.name().toLowerCase(Locale.ROOT)));
    }

    @Test
    void fromWireRejectsUnknownAndNull() {
        assertEquals(Optional.empty(), HandlerCode.fromWire(null));
        assertEquals(Optional.empty(), HandlerCode.fromWire("RETRY "));
        assertEquals(Optional.empty(), HandlerCode.fromWire("SNOOZE"));
    }

    @Test
    void failedAttemptIsOneBased() {
        assertThrows(IllegalArgumentException.class, () -> decide(DISCARD_POLICY, 0, Failure.error("x.y")));
    }
}
