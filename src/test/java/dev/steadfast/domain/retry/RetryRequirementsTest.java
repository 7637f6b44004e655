package dev.steadfast.domain.retry;

import static dev.steadfast.domain.retry.RetryPolicyMergeTest.assertViolation;
import static dev.steadfast.domain.retry.RetryTestSupport.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.Lease;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * One test per MUST-level requirement of the OJS retry spec (section 15, RET-01..RET-20). Where a
 * requirement is partly about the server (RET-11..RET-14, RET-16), the pure part is tested here.
 */
class RetryRequirementsTest {

    private static final Instant NOW = Instant.parse("2026-02-12T10:30:00Z");

    /** Runs an always-failing job to its terminal decision and returns how many attempts ran. */
    private static int attemptsUntilTerminal(RetryPolicy p, Failure f) {
        Random random = new Random(1);
        Instant clock = NOW;
        for (int attempt = 1; attempt <= 10_000; attempt++) {
            FailureDecision d = RetryDecider.decide(p, attempt, f, clock, random);
            if (!(d instanceof FailureDecision.Retry)) {
                return attempt;
            }
            clock = ((FailureDecision.Retry) d).at();
        }
        throw new AssertionError("never reached a terminal decision");
    }

    @Test
    @DisplayName("RET-01: Implementations MUST treat max_attempts as an exact upper bound on total execution attempts.")
    void RET_01_maxAttemptsIsAnExactUpperBound() {
        for (int max : new int[] {1, 2, 3, 5, 25}) {
            RetryPolicy p = RetryPolicy.DEFAULT.withMaxAttempts(max);
            assertEquals(max, attemptsUntilTerminal(p, Failure.error("x.y")), "max_attempts=" + max);
            assertEquals(max, attemptsUntilTerminal(p, Failure.withCode("x.y", HandlerCode.RETRY)), "explicit RETRY");
            assertEquals(max, attemptsUntilTerminal(p, Failure.leaseExpired("x.y")), "lease expiry");
        }
        assertEquals(1, attemptsUntilTerminal(RetryPolicy.DEFAULT.withMaxAttempts(0), Failure.error("x.y")),
                "max_attempts=0: the first failure is immediately terminal");
    }

    @Test
    @DisplayName("RET-02: Implementations MUST parse duration fields as ISO 8601 duration strings.")
    void RET_02_durationFieldsAreIso8601Strings() {
        RetryPolicy p = RetryPolicy.merge(RetryPolicy.DEFAULT, json("initial_interval", "PT0.5S", "max_interval", "PT1H30M"));
        assertEquals(Duration.ofMillis(500), p.initialInterval());
        assertEquals(Duration.ofMinutes(90), p.maxInterval());
        assertEquals(Duration.ofHours(26), RetryPolicy.merge(RetryPolicy.DEFAULT, json("max_interval", "P1DT2H")).maxInterval());
        assertViolation(json("initial_interval", 1000), "retry.initial_interval", "initial_interval");
    }

    @Test
    @DisplayName("RET-03: Implementations MUST reject backoff_coefficient values less than 1.0.")
    void RET_03_coefficientBelowOneIsRejected() {
        assertViolation(json("backoff_coefficient", 0.5), "retry.backoff_coefficient",
                "retry.backoff_coefficient must be >= 1.0, got 0.5");
        for (Object v : List.of(0.999, 0, -2, new BigDecimal("0.99999999999999999999"))) {
            assertViolation(json("backoff_coefficient", v), "retry.backoff_coefficient", "backoff_coefficient");
        }
        assertEquals(1.0, RetryPolicy.merge(RetryPolicy.DEFAULT, json("backoff_coefficient", 1)).backoffCoefficient());
        assertEquals(1.0, RetryPolicy.merge(RetryPolicy.DEFAULT, json("backoff_coefficient", 1.0)).backoffCoefficient());
    }

    @Test
    @DisplayName("RET-04: Implementations MUST cap computed delay at max_interval.")
    void RET_04_delayIsCappedAtMaxInterval() {
        for (BackoffStrategy s : List.of(BackoffStrategy.LINEAR, BackoffStrategy.EXPONENTIAL, BackoffStrategy.POLYNOMIAL)) {
            RetryPolicy p = RetryTestSupport.noJitter(s, "PT10S", 3.0, "PT1M");
            assertTrue(Backoff.rawDelay(p, 20).compareTo(Duration.ofMinutes(1)) > 0, s.toString());
            assertEquals(Duration.ofMinutes(1), Backoff.cappedDelay(p, 20), s.toString());
            assertEquals(Duration.ofMinutes(1), Backoff.delay(p, 20, new Random(3)), s.toString());
        }
        assertEquals(Duration.ofSeconds(300), Backoff.cappedDelay(RetryTestSupport.noJitter(
                BackoffStrategy.EXPONENTIAL, "PT1S", 2.0, "PT5M"), 10), "spec 3.3: 512s capped to 300s");
    }

    @Test
    @DisplayName("RET-05: Implementations MUST apply jitter using random(0.5, 1.5) multiplier when jitter is true.")
    void RET_05_jitterMultiplierIsHalfToOneAndAHalf() {
        RetryPolicy p = RetryTestSupport.policy(BackoffStrategy.NONE, Duration.ofSeconds(10), 2.0, Duration.ofMinutes(5), true);
        assertEquals(Duration.ofSeconds(5), Backoff.delay(p, 1, new RetryTestSupport.FixedRandom(0.0)));
        assertEquals(Duration.ofSeconds(10), Backoff.delay(p, 1, new RetryTestSupport.FixedRandom(0.5)));
        assertTrue(Backoff.delay(p, 1, new RetryTestSupport.FixedRandom(Math.nextDown(1.0))).compareTo(Duration.ofSeconds(15)) < 0);
        Random random = new Random(5);
        double sumSeconds = 0;
        for (int i = 0; i < 10_000; i++) {
            Duration d = Backoff.delay(p, 1, random);
            assertTrue(d.compareTo(Duration.ofSeconds(5)) >= 0 && d.compareTo(Duration.ofSeconds(15)) < 0, d.toString());
            sumSeconds += d.toNanos() / 1e9;
        }
        assertEquals(10.0, sumSeconds / 10_000, 0.1, "mean jittered delay is the capped delay");
    }

    @Test
    @DisplayName("RET-06: Implementations MUST apply max_interval cap after jitter.")
    void RET_06_capIsAppliedAgainAfterJitter() {
        RetryPolicy p = RetryTestSupport.policy(BackoffStrategy.EXPONENTIAL, Duration.ofSeconds(10), 2.0, Duration.ofMinutes(5), true);
        assertEquals(Duration.ofSeconds(300), Backoff.cappedDelay(p, 6), "spec 5.3: 320s capped to 300s");
        assertEquals(Duration.ofSeconds(300), Backoff.delay(p, 6, new RetryTestSupport.FixedRandom(0.9)), "1.4 x 300s is capped again");
        assertEquals(new DelayRange(Duration.ofSeconds(150), Duration.ofSeconds(300)), Backoff.range(p, 6));
    }

    @Test
    @DisplayName("RET-07: Implementations MUST NOT retry when error type matches non_retryable_errors.")
    void RET_07_nonRetryableErrorsAreNotRetried() {
        RetryPolicy p = RetryPolicy.merge(RetryPolicy.DEFAULT, json("max_attempts", 5, "initial_interval", "PT30S",
                "max_interval", "PT15M", "non_retryable_errors", List.of("auth.invalid_credentials", "auth.account_suspended",
                        "resource.not_found", "validation.*", "external.crm.api_deprecated"), "on_exhaustion", "dead_letter"));
        for (String type : List.of("auth.invalid_credentials", "resource.not_found", "validation.email")) {
            assertEquals(new FailureDecision.DeadLetter("non_retryable_error"),
                    RetryDecider.decide(p, 1, Failure.error(type), NOW, new Random(1)), type);
        }
        assertInstanceOf(FailureDecision.Retry.class,
                RetryDecider.decide(p, 1, Failure.error("external.crm.service_unavailable"), NOW, new Random(1)));
    }

    @Test
    @DisplayName("RET-08: Implementations MUST respect handler error response codes when provided.")
    void RET_08_handlerResponseCodesAreRespected() {
        RetryPolicy p = RetryPolicy.DEFAULT.withMaxAttempts(25);
        Random r = new Random(8);
        assertEquals(new FailureDecision.Discard("handler_discard"),
                RetryDecider.decide(p, 1, Failure.withCode("payment.card_declined", HandlerCode.DISCARD), NOW, r));
        assertEquals(new FailureDecision.DeadLetter("handler_dead_letter"),
                RetryDecider.decide(p, 1, Failure.withCode("payment.card_stolen", HandlerCode.DEAD_LETTER), NOW, r));
        assertEquals(new FailureDecision.Discard("handler_fail"),
                RetryDecider.decide(p, 1, Failure.withCode("payment.invalid", HandlerCode.FAIL), NOW, r));
        assertInstanceOf(FailureDecision.Retry.class,
                RetryDecider.decide(p, 1, Failure.withCode("external.timeout", HandlerCode.RETRY), NOW, r));
        assertInstanceOf(FailureDecision.Retry.class, RetryDecider.decide(p, 1, Failure.error("external.server_error"), NOW, r));
    }

    @Test
    @DisplayName("RET-09: Implementations MUST apply the default retry policy when no policy is specified.")
    void RET_09_defaultPolicyApplies() {
        assertSame(RetryPolicy.DEFAULT, RetryPolicy.merge(RetryPolicy.DEFAULT, null));
        assertEquals(new RetryPolicy(3, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), true, List.of(),
                OnExhaustion.DISCARD, BackoffStrategy.EXPONENTIAL), RetryPolicy.DEFAULT);
        List<Duration> delays = Backoff.schedule(RetryPolicy.DEFAULT).stream().map(ScheduleRow::delay).toList();
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)), delays, "spec 12.2: delays 1s, 2s before jitter");
        assertEquals(new FailureDecision.Discard("max_attempts_exhausted"),
                RetryDecider.decide(RetryPolicy.DEFAULT, 3, Failure.error("x.y"), NOW, new Random(9)));
    }

    @Test
    @DisplayName("RET-10: Implementations MUST merge partial policies with defaults.")
    void RET_10_partialPoliciesMergeWithDefaults() {
        RetryPolicy merged = RetryPolicy.merge(RetryPolicy.DEFAULT, json("max_attempts", 10, "on_exhaustion", "dead_letter"));
        assertEquals(new RetryPolicy(10, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), true, List.of(),
                OnExhaustion.DEAD_LETTER, BackoffStrategy.EXPONENTIAL), merged);
    }

    @Test
    @DisplayName("RET-11: Implementations MUST NOT make a retrying job available before the backoff delay elapses.")
    void RET_11_retryIsNotDueBeforeTheBackoffElapses() {
        Random random = new Random(11);
        RetryPolicy p = RetryPolicy.DEFAULT.withMaxAttempts(20);
        for (int attempt = 1; attempt < 20; attempt++) {
            FailureDecision.Retry retry = (FailureDecision.Retry) RetryDecider.decide(p, attempt, Failure.error("x.y"), NOW, random);
            assertEquals(NOW.plus(retry.delay()), retry.at());
            Duration halfCapped = Backoff.cappedDelay(p, attempt).dividedBy(2);
            assertFalse(retry.at().isBefore(NOW.plus(halfCapped)), "attempt " + attempt);
            assertTrue(retry.at().isAfter(NOW));
        }
    }

    @Test
    @DisplayName("RET-12: Implementations MUST treat visibility timeout expiry as a failure attempt.")
    void RET_12_leaseExpiryIsAFailedAttempt() {
        RetryPolicy p = RetryPolicy.merge(RetryPolicy.DEFAULT, json("max_attempts", 2, "jitter", false,
                "non_retryable_errors", List.of("timeout.*"), "on_exhaustion", "dead_letter"));
        Failure expired = Failure.leaseExpired("timeout.visibility");
        assertEquals(new FailureDecision.Retry(NOW.plusSeconds(1), Duration.ofSeconds(1)),
                RetryDecider.decide(p, 1, expired, NOW, new Random(12)), "ignores non_retryable_errors, backs off");
        assertEquals(new FailureDecision.DeadLetter("max_attempts_exhausted"),
                RetryDecider.decide(p, 2, expired, NOW, new Random(12)), "consumes an attempt, then on_exhaustion");
        assertEquals(new FailureDecision.DeadLetter("non_retryable_error"),
                RetryDecider.decide(p, 1, Failure.error("timeout.visibility"), NOW, new Random(12)), "contrast: worker error");
    }

    @Test
    @DisplayName("RET-13: Implementations MUST extend reservation on valid heartbeat rather than requeuing.")
    void RET_13_heartbeatExtendsTheReservation() {
        Duration visibility = Duration.ofSeconds(30);
        Instant deadline = NOW.plusSeconds(100);
        Lease lease = new Lease("worker-1", Lease.expiry(NOW, visibility, deadline));
        assertEquals(NOW.plusSeconds(30), lease.expiresAt());
        Instant t = NOW;
        for (int beat = 0; beat < 10; beat++) {
            t = t.plusSeconds(20);
            if (lease.isExpired(t)) {
                break;
            }
            Lease next = lease.extend(t, visibility, deadline);
            assertFalse(next.expiresAt().isBefore(lease.expiresAt()), "never moves backwards");
            assertFalse(next.expiresAt().isAfter(deadline), "never past the execution deadline");
            assertEquals(lease.owner(), next.owner());
            lease = next;
        }
        assertEquals(deadline, lease.expiresAt(), "heartbeats carried the lease up to the deadline");
        Lease expired = lease;
        assertThrows(IllegalStateException.class, () -> expired.extend(deadline, visibility, deadline));
    }

    @Test
    @DisplayName("RET-14: Implementations MUST track attempt count, error history, and next retry timestamp.")
    void RET_14_attemptErrorsAndNextRetryAreTracked() {
        RetryPolicy p = RetryPolicy.DEFAULT.withMaxAttempts(4);
        Random random = new Random(14);
        List<ErrorEntry> errors = List.of();
        List<Instant> nextRetryAt = new ArrayList<>();
        Instant clock = NOW;
        FailureDecision d = null;
        for (int attempt = 1; !(d instanceof FailureDecision.Discard); attempt++) {
            errors = ErrorHistory.append(errors, new ErrorEntry(1, attempt, "external.api_timeout", "RETRY",
                    "timed out", clock, Map.of("timeout_ms", 30_000), null));
            d = RetryDecider.decide(p, attempt, Failure.error("external.api_timeout"), clock, random);
            if (d instanceof FailureDecision.Retry) {
                clock = ((FailureDecision.Retry) d).at();
                nextRetryAt.add(clock);
            }
        }
        assertEquals(List.of(1, 2, 3, 4), errors.stream().map(ErrorEntry::attempt).toList());
        assertEquals(NOW, errors.get(0).occurredAt());
        assertEquals(nextRetryAt, errors.subList(1, 4).stream().map(ErrorEntry::occurredAt).toList(),
                "each retry ran at the previously scheduled next_retry_at");
    }

    @Test
    @DisplayName("RET-15: Implementations MUST preserve at least the 10 most recent error history entries.")
    void RET_15_atLeastTenErrorsArePreserved() {
        List<ErrorEntry> h = List.of();
        for (int attempt = 1; attempt <= 25; attempt++) {
            h = ErrorHistory.append(h, ErrorHistoryTest.entry(attempt), 3);
        }
        assertEquals(10, h.size());
        assertEquals(16, h.get(0).attempt());
        assertEquals(25, h.get(9).attempt());
    }

    @Test
    @DisplayName("RET-16: Implementations MUST validate retry policy at enqueue time.")
    void RET_16_everySection11RuleIsEnforced() {
        assertViolation(json("max_attempts", -1), "retry.max_attempts", "max_attempts");
        assertViolation(json("max_attempts", 3.5), "retry.max_attempts", "max_attempts must be an integer");
        assertViolation(json("initial_interval", "5 seconds"), "retry.initial_interval", "ISO 8601");
        assertViolation(json("initial_interval", "PT0S"), "retry.initial_interval", "greater than zero");
        assertViolation(json("backoff_coefficient", 0.5), "retry.backoff_coefficient", ">= 1.0");
        assertViolation(json("max_interval", "PT5 M"), "retry.max_interval", "ISO 8601");
        assertViolation(json("max_interval", "PT0.5S"), "retry.max_interval", "initial_interval");
        assertViolation(json("initial_interval", "PT10M"), "retry.initial_interval", "max_interval");
        assertViolation(json("jitter", "true"), "retry.jitter", "boolean");
        assertViolation(json("non_retryable_errors", "auth.*"), "retry.non_retryable_errors", "array");
        assertViolation(json("non_retryable_errors", List.of(1)), "retry.non_retryable_errors", "non_retryable_errors");
        assertViolation(json("on_exhaustion", "retry"), "retry.on_exhaustion", "\"discard\" or \"dead_letter\"");
    }

    @Test
    @DisplayName("RET-17: Implementations MUST support both \"discard\" and \"dead_letter\" exhaustion behaviors.")
    void RET_17_bothExhaustionBehaviorsAreSupported() {
        RetryPolicy discard = RetryPolicy.merge(RetryPolicy.DEFAULT, json("on_exhaustion", "discard",
                "non_retryable_errors", List.of("bad.input")));
        RetryPolicy deadLetter = RetryPolicy.merge(discard, json("on_exhaustion", "dead_letter"));
        Random r = new Random(17);
        assertEquals(new FailureDecision.Discard("max_attempts_exhausted"), RetryDecider.decide(discard, 3, Failure.error("x.y"), NOW, r));
        assertEquals(new FailureDecision.DeadLetter("max_attempts_exhausted"), RetryDecider.decide(deadLetter, 3, Failure.error("x.y"), NOW, r));
        assertEquals(new FailureDecision.Discard("non_retryable_error"), RetryDecider.decide(discard, 1, Failure.error("bad.input"), NOW, r));
        assertEquals(new FailureDecision.DeadLetter("non_retryable_error"), RetryDecider.decide(deadLetter, 1, Failure.error("bad.input"), NOW, r));
        assertEquals("dead_letter", deadLetter.toWire().get("on_exhaustion"));
    }

    @Test
    @DisplayName("RET-18: Implementations MUST support exact matching for non_retryable_errors.")
    void RET_18_exactMatching() {
        List<String> patterns = List.of("validation.payload_invalid", "resource.not_found");
        assertTrue(ErrorMatcher.matches(patterns, "validation.payload_invalid"));
        assertTrue(ErrorMatcher.matches(patterns, "resource.not_found"));
        assertFalse(ErrorMatcher.matches(patterns, "validation.schema_error"));
        assertFalse(ErrorMatcher.matches(patterns, "validation.payload_invalid.extra"));
        assertFalse(ErrorMatcher.matches(patterns, "validation"));
    }

    @Test
    @DisplayName("RET-19: Implementations MUST reject invalid ISO 8601 duration strings.")
    void RET_19_invalidDurationsAreRejected() {
        for (String bad : List.of("P", "PT", "1S", "PT-1S", "pt1s", "P1W", "PT1.S", "30s", "00:00:30", "")) {
            assertViolation(json("initial_interval", bad), "retry.initial_interval", "initial_interval");
            assertViolation(json("max_interval", bad), "retry.max_interval", "max_interval");
        }
    }

    @Test
    @DisplayName("RET-20: Implementations MUST validate retry policies against the schema (or equivalent constraints).")
    void RET_20_schemaConstraintsAreEnforced() {
        assertViolation(json("retry", 3), "retry.retry", "retry.retry is not a retry policy field");
        assertViolation(json("max_attempts", "3"), "retry.max_attempts", "integer");
        assertViolation(json("max_attempts", true), "retry.max_attempts", "integer");
        assertViolation(json("backoff_coefficient", "2.0"), "retry.backoff_coefficient", "number");
        assertViolation(json("jitter", 1), "retry.jitter", "boolean");
        assertViolation(json("non_retryable_errors", List.of("")), "retry.non_retryable_errors", "non-empty");
        assertViolation(json("non_retryable_errors", Map.of("a", "b")), "retry.non_retryable_errors", "array");
        assertViolation(json("on_exhaustion", "DEAD_LETTER"), "retry.on_exhaustion", "on_exhaustion");
        assertViolation(json("initial_interval", Map.of()), "retry.initial_interval", "string");
        Map<String, Object> specExample = new LinkedHashMap<>(json("max_attempts", 25, "initial_interval", "PT15S",
                "backoff_coefficient", 4.0, "max_interval", "PT1H", "jitter", true, "on_exhaustion", "dead_letter",
                "non_retryable_errors", List.of("payment.card_stolen", "payment.card_expired", "validation.*")));
        RetryPolicy valid = RetryPolicy.merge(RetryPolicy.DEFAULT, specExample);
        assertEquals(25, valid.maxAttempts());
        assertNull(valid.toWire().get("initial_interval_ms"), "canonical form uses the schema's ISO fields only");
    }
}
