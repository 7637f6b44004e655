package dev.steadfast.domain.retry;

import static dev.steadfast.domain.retry.RetryTestSupport.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Merging partial JSON policies over a base: spec examples, aliases, inheritance and wire round-trips. */
class RetryPolicyMergeTest {

    @Test
    @DisplayName("spec 8.1: {max_attempts: 10, on_exhaustion: dead_letter} yields the documented effective policy")
    void specPartialOverrideExample() {
        RetryPolicy merged = RetryPolicy.merge(RetryPolicy.DEFAULT,
                json("max_attempts", 10, "on_exhaustion", "dead_letter"));
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("max_attempts", 10);
        expected.put("initial_interval", "PT1S");
        expected.put("backoff_coefficient", 2.0);
        expected.put("max_interval", "PT5M");
        expected.put("jitter", true);
        expected.put("non_retryable_errors", List.of());
        expected.put("on_exhaustion", "dead_letter");
        expected.put("backoff_strategy", "exponential");
        assertEquals(expected, merged.toWire());
        assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(merged.toWire().keySet()), "spec field order");
    }

    @Test
    @DisplayName("spec 12.1 and 12.6: single-field overrides keep every other default")
    void specExamplesNoRetryAndDirectToDeadLetter() {
        assertEquals(RetryPolicy.DEFAULT.withMaxAttempts(1), RetryPolicy.merge(RetryPolicy.DEFAULT, json("max_attempts", 1)));
        RetryPolicy deadLetter = RetryPolicy.merge(RetryPolicy.DEFAULT, json("max_attempts", 1, "on_exhaustion", "dead_letter"));
        assertEquals(1, deadLetter.maxAttempts());
        assertEquals(OnExhaustion.DEAD_LETTER, deadLetter.onExhaustion());
    }

    @Test
    void fullOverrideOfEveryField() {
        RetryPolicy p = RetryPolicy.merge(RetryPolicy.DEFAULT, json("max_attempts", 25, "initial_interval", "PT15S",
                "backoff_coefficient", 4.0, "max_interval", "PT1H", "jitter", false,
                "non_retryable_errors", List.of("payment.card_stolen", "validation.*"), "on_exhaustion", "dead_letter",
                "backoff_strategy", "polynomial"));
        assertEquals(new RetryPolicy(25, Duration.ofSeconds(15), 4.0, Duration.ofHours(1), false,
                List.of("payment.card_stolen", "validation.*"), OnExhaustion.DEAD_LETTER, BackoffStrategy.POLYNOMIAL), p);
    }

    @Test
    void nullOrEmptyPartialReturnsTheBase() {
        assertSame(RetryPolicy.DEFAULT, RetryPolicy.merge(RetryPolicy.DEFAULT, null));
        assertSame(RetryPolicy.DEFAULT, RetryPolicy.merge(RetryPolicy.DEFAULT, Map.of()));
    }

    @Test
    void nullValuesInheritFromTheBase() {
        RetryPolicy base = RetryPolicy.merge(RetryPolicy.DEFAULT, json("max_attempts", 7, "backoff_strategy", "linear"));
        RetryPolicy merged = RetryPolicy.merge(base, json("max_attempts", null, "initial_interval", null,
                "backoff_coefficient", null, "max_interval", null, "jitter", null, "non_retryable_errors", null,
                "on_exhaustion", null, "backoff_strategy", null, "initial_interval_ms", null, "max_interval_ms", null));
        assertEquals(base, merged);
    }

    @Test
    void absentFieldsInheritFromANonDefaultBase() {
        RetryPolicy base = new RetryPolicy(9, Duration.ofSeconds(2), 3.0, Duration.ofMinutes(10), false,
                List.of("x.y"), OnExhaustion.DEAD_LETTER, BackoffStrategy.LINEAR);
        assertEquals(base.withMaxAttempts(4), RetryPolicy.merge(base, json("max_attempts", 4)));
    }

    @Test
    void millisecondAliases() {
        RetryPolicy p = RetryPolicy.merge(RetryPolicy.DEFAULT, json("initial_interval_ms", 500, "max_interval_ms", 60_000L));
        assertEquals(Duration.ofMillis(500), p.initialInterval());
        assertEquals(Duration.ofMinutes(1), p.maxInterval());
        assertEquals(Duration.ofMillis(250), RetryPolicy.merge(RetryPolicy.DEFAULT,
                json("initial_interval_ms", new BigDecimal("250"))).initialInterval());
        assertEquals(Duration.ofMillis(250), RetryPolicy.merge(RetryPolicy.DEFAULT,
                json("initial_interval_ms", BigInteger.valueOf(250))).initialInterval());
        assertEquals(Duration.ofMillis(250), RetryPolicy.merge(RetryPolicy.DEFAULT,
                json("initial_interval_ms", 250.0)).initialInterval());
    }

    @Test
    void bothFormsOfOneDurationAreRejected() {
        PolicyViolation v = assertThrows(PolicyViolation.class, () -> RetryPolicy.merge(RetryPolicy.DEFAULT,
                json("initial_interval", "PT1S", "initial_interval_ms", 1000)));
        assertEquals("retry.initial_interval", v.field());
        assertTrue(v.getMessage().contains("initial_interval_ms"), v.getMessage());
        PolicyViolation w = assertThrows(PolicyViolation.class, () -> RetryPolicy.merge(RetryPolicy.DEFAULT,
                json("max_interval", "PT1M", "max_interval_ms", 60_000)));
        assertEquals("retry.max_interval", w.field());
    }

    @Test
    void oneFormNullAndTheOtherSetIsFine() {
        RetryPolicy p = RetryPolicy.merge(RetryPolicy.DEFAULT, json("initial_interval", null, "initial_interval_ms", 2000));
        assertEquals(Duration.ofSeconds(2), p.initialInterval());
    }

    @Test
    void millisecondAliasesAreValidatedUnderTheirOwnName() {
        assertViolation(json("initial_interval_ms", 0), "retry.initial_interval_ms", "greater than zero");
        assertViolation(json("initial_interval_ms", -5), "retry.initial_interval_ms", "initial_interval_ms");
        assertViolation(json("initial_interval_ms", 1.5), "retry.initial_interval_ms", "integer");
        assertViolation(json("max_interval_ms", "60000"), "retry.max_interval_ms", "max_interval_ms");
        assertViolation(json("max_interval_ms", 500), "retry.max_interval_ms", "initial_interval");
    }

    @Test
    void unknownFieldIsRejected() {
        assertViolation(json("foo", 1), "retry.foo", "retry.foo is not a retry policy field");
        assertViolation(json("maxAttempts", 3), "retry.maxAttempts", "not a retry policy field");
        assertViolation(json("max_attempts", 3, "retries", 3), "retry.retries", "not a retry policy field");
    }

    @Test
    void backoffStrategyIsAcceptedAndInherited() {
        RetryPolicy linear = RetryPolicy.merge(RetryPolicy.DEFAULT, json("backoff_strategy", "linear"));
        assertEquals(BackoffStrategy.LINEAR, linear.strategy());
        assertEquals(BackoffStrategy.LINEAR, RetryPolicy.merge(linear, json("max_attempts", 2)).strategy());
        assertEquals(BackoffStrategy.EXPONENTIAL,
                RetryPolicy.merge(RetryPolicy.DEFAULT, json("backoff_coefficient", 4.0)).strategy(),
                "the strategy is never inferred from the coefficient");
        assertViolation(json("backoff_strategy", "Linear"), "retry.backoff_strategy", "backoff_strategy");
        assertViolation(json("backoff_strategy", "fixed"), "retry.backoff_strategy", "backoff_strategy");
    }

    @Test
    void toWireRoundTripsThroughMerge() {
        RetryPolicy p = new RetryPolicy(0, Duration.ofMillis(1500), 1.25, Duration.ofHours(2), false,
                List.of("a.b", "c.*"), OnExhaustion.DEAD_LETTER, BackoffStrategy.NONE);
        assertEquals(p, RetryPolicy.merge(RetryPolicy.DEFAULT, p.toWire()));
        assertEquals(RetryPolicy.DEFAULT, RetryPolicy.merge(p, RetryPolicy.DEFAULT.toWire()));
        assertEquals("PT1.5S", p.toWire().get("initial_interval"));
    }

    @Test
    void policyIsImmutable() {
        List<String> errors = new ArrayList<>(List.of("a.b"));
        RetryPolicy p = RetryPolicy.merge(RetryPolicy.DEFAULT, json("non_retryable_errors", errors));
        errors.add("c.d");
        assertEquals(List.of("a.b"), p.nonRetryableErrors());
        assertThrows(UnsupportedOperationException.class, () -> p.nonRetryableErrors().add("x"));
    }

    @Test
    void maxAttemptsAcceptsIntegralNumbersOfAnyJsonType() {
        for (Object v : List.of(3, 3L, BigInteger.valueOf(3), new BigDecimal("3"), new BigDecimal("3.000"), 3.0)) {
            assertEquals(3, RetryPolicy.merge(RetryPolicy.DEFAULT, json("max_attempts", v)).maxAttempts(), v.toString());
        }
        assertEquals(Integer.MAX_VALUE, RetryPolicy.merge(RetryPolicy.DEFAULT,
                json("max_attempts", Integer.MAX_VALUE)).maxAttempts());
    }

    @Test
    void withMaxAttemptsValidates() {
        assertEquals(5, RetryPolicy.DEFAULT.withMaxAttempts(5).maxAttempts());
        assertThrows(PolicyViolation.class, () -> RetryPolicy.DEFAULT.withMaxAttempts(-1));
    }

    @Test
    void constructorEnforcesTheSameRules() {
        Duration s = Duration.ofSeconds(1);
        List<String> none = List.of();
        assertThrows(PolicyViolation.class, () -> new RetryPolicy(-1, s, 2, s, true, none, OnExhaustion.DISCARD, BackoffStrategy.NONE));
        assertThrows(PolicyViolation.class, () -> new RetryPolicy(1, Duration.ZERO, 2, s, true, none, OnExhaustion.DISCARD, BackoffStrategy.NONE));
        assertThrows(PolicyViolation.class, () -> new RetryPolicy(1, s, 0.5, s, true, none, OnExhaustion.DISCARD, BackoffStrategy.NONE));
        assertThrows(PolicyViolation.class, () -> new RetryPolicy(1, s, Double.NaN, s, true, none, OnExhaustion.DISCARD, BackoffStrategy.NONE));
        assertThrows(PolicyViolation.class, () -> new RetryPolicy(1, s.multipliedBy(2), 2, s, true, none, OnExhaustion.DISCARD, BackoffStrategy.NONE));
        assertThrows(PolicyViolation.class, () -> new RetryPolicy(1, s, 2, Iso8601Duration.MAX.plusNanos(1), true, none, OnExhaustion.DISCARD, BackoffStrategy.NONE));
        assertThrows(PolicyViolation.class, () -> new RetryPolicy(1, s, 2, s, true, List.of(""), OnExhaustion.DISCARD, BackoffStrategy.NONE));
        assertThrows(NullPointerException.class, () -> new RetryPolicy(1, s, 2, s, true, none, null, BackoffStrategy.NONE));
    }

    /**
     * A scope read once (a configured queue or type policy) is judged again over each base it is layered on: its
     * fields were checked when read, the rules between fields on every merge.
     */
    @Test
    void aPartialReadOnceIsJudgedOverEachBase() {
        PartialRetryPolicy scope = PartialRetryPolicy.parse(json("max_interval_ms", 2000, "jitter", false));
        RetryPolicy slow = RetryPolicy.merge(RetryPolicy.DEFAULT, json("initial_interval", "PT5S"));
        assertEquals(RetryPolicy.merge(RetryPolicy.DEFAULT, json("max_interval_ms", 2000, "jitter", false)),
                scope.over(RetryPolicy.DEFAULT));
        PolicyViolation v = assertThrows(PolicyViolation.class, () -> scope.over(slow));
        assertEquals("retry.max_interval_ms", v.field(), v.getMessage());
        PartialRetryPolicy intervals = PartialRetryPolicy.parse(json("intervals", List.of("PT1S", "PT2S")));
        RetryPolicy custom = RetryPolicy.merge(RetryPolicy.DEFAULT, json("backoff_strategy", "custom",
                "intervals", List.of("PT3S")));
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)), intervals.over(custom).intervals());
        assertEquals("retry.intervals", assertThrows(PolicyViolation.class,
                () -> intervals.over(RetryPolicy.DEFAULT)).field());
        assertSame(slow, PartialRetryPolicy.NONE.over(slow));
        assertSame(PartialRetryPolicy.NONE, PartialRetryPolicy.parse(Map.of()));
    }

    static void assertViolation(Map<String, Object> partial, String field, String messagePart) {
        PolicyViolation v = assertThrows(PolicyViolation.class, () -> RetryPolicy.merge(RetryPolicy.DEFAULT, partial));
        assertEquals(field, v.field(), v.getMessage());
        assertTrue(v.getMessage().contains(messagePart), () -> "'" + v.getMessage() + "' should contain '" + messagePart + "'");
        assertTrue(v.getMessage().startsWith(field), v.getMessage());
    }
}
