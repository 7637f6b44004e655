package dev.steadfast.domain.retry;

import static dev.steadfast.domain.retry.RetryTestSupport.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The strategies the seed systems use, without code: {@code constant} as another name of {@code none}
 * (openapi.yaml, zzz_jobs), and an explicit delay per retry ({@code custom} with {@code intervals}), with
 * Kathikon's min(n² · 5 s, 86400 s) written out.
 */
class SeedStrategiesTest {

    @Test
    void constantIsTheNoneStrategyAndIsWrittenBackAsNone() {
        RetryPolicy p = RetryPolicy.merge(RetryPolicy.DEFAULT,
                json("backoff_strategy", "constant", "initial_interval", "PT10S", "jitter", false));
        assertEquals(BackoffStrategy.NONE, p.strategy());
        assertEquals("none", p.toWire().get("backoff_strategy"));
        for (int n = 1; n <= 5; n++) {
            assertEquals(Duration.ofSeconds(10), Backoff.cappedDelay(p, n));
        }
        assertEquals(p, RetryPolicy.merge(RetryPolicy.DEFAULT, p.toWire()), "the canonical form reads back");
    }

    /** Kathikon's schedule for its default of 20 attempts: 19 retries. */
    static List<Object> kathikon() {
        List<Object> delays = new ArrayList<>();
        for (int n = 1; n <= 19; n++) {
            delays.add("PT" + Math.min(n * n * 5, 86_400) + "S");
        }
        return delays;
    }

    @Test
    void aCustomListGivesEachRetryItsDelayAndTheLastOneRepeats() {
        RetryPolicy p = RetryPolicy.merge(RetryPolicy.DEFAULT, json("backoff_strategy", "custom", "intervals",
                kathikon(), "max_interval", "P1D", "max_attempts", 20, "jitter", false));
        for (int n = 1; n <= 19; n++) {
            assertEquals(Duration.ofSeconds(n * n * 5L), Backoff.delay(p, n, new Random(n)), "retry " + n);
        }
        assertEquals(Duration.ofSeconds(1805), Backoff.cappedDelay(p, 25), "past the list, the last delay repeats");
        assertEquals(19, Backoff.schedule(p).size());
        assertEquals(p, RetryPolicy.merge(RetryPolicy.DEFAULT, p.toWire()), "the canonical form reads back");
    }

    @Test
    void jitterStillAppliesToListedDelaysWithinMaxInterval() {
        RetryPolicy p = RetryPolicy.merge(RetryPolicy.DEFAULT, json("backoff_strategy", "custom",
                "intervals", List.of("PT10S", "PT1M"), "max_interval", "PT1M"));
        Random seeded = new Random(42);
        for (int i = 0; i < 1000; i++) {
            Duration d = Backoff.delay(p, 2, seeded);
            assertTrue(Backoff.range(p, 2).contains(d) && d.compareTo(Duration.ofMinutes(1)) <= 0, d.toString());
        }
        assertEquals(new DelayRange(Duration.ofSeconds(5), Duration.ofSeconds(15)), Backoff.range(p, 1));
    }

    @Test
    void aListIsValidatedAndBelongsToTheCustomStrategyOnly() {
        assertField("retry.intervals", json("backoff_strategy", "custom"));
        assertField("retry.intervals", json("backoff_strategy", "custom", "intervals", List.of()));
        assertField("retry.intervals", json("intervals", List.of("PT1S")));
        assertField("retry.intervals[1]", json("backoff_strategy", "custom", "intervals", List.of("PT1S", "soon")));
        assertField("retry.intervals", json("backoff_strategy", "custom", "intervals", List.of("PT0S")));
        assertField("retry.intervals", json("backoff_strategy", "custom", "intervals", List.of("PT10M")));
        assertField("retry.intervals", json("backoff_strategy", "custom", "intervals", List.of(5)));
        assertField("retry.backoff_strategy", json("backoff_strategy", "Constant"));
    }

    @Test
    void aScopeThatLeavesCustomDropsTheInheritedListAndOneThatKeepsItMayReplaceIt() {
        RetryPolicy queue = RetryPolicy.merge(RetryPolicy.DEFAULT,
                json("backoff_strategy", "custom", "intervals", List.of("PT1S", "PT2S")));
        RetryPolicy job = RetryPolicy.merge(queue, json("intervals", List.of("PT3S")));
        assertEquals(List.of(Duration.ofSeconds(3)), job.intervals());
        RetryPolicy linear = RetryPolicy.merge(queue, json("backoff_strategy", "linear"));
        assertEquals(List.of(), linear.intervals());
        assertEquals(queue, RetryPolicy.merge(queue, json("max_attempts", 3)).withMaxAttempts(queue.maxAttempts()));
    }

    @Test
    void outOfRangeMaxAttemptsAreClampedResetOrRejected() {
        MaxAttemptsRule clamp = new MaxAttemptsRule(1, 100, MaxAttemptsRule.Mode.CLAMP);
        MaxAttemptsRule reset = new MaxAttemptsRule(1, 100, MaxAttemptsRule.Mode.RESET);
        MaxAttemptsRule reject = new MaxAttemptsRule(1, 100, MaxAttemptsRule.Mode.REJECT);
        for (int ok : new int[] {1, 50, 100}) {
            assertEquals(ok, clamp.apply(ok, 3));
            assertEquals(ok, reset.apply(ok, 3));
            assertEquals(ok, reject.apply(ok, 3));
        }
        assertEquals(100, clamp.apply(500, 3));
        assertEquals(1, clamp.apply(0, 3));
        assertEquals(3, reset.apply(500, 3), "Flare: values outside 1-100 are reset to 3");
        assertEquals(3, reset.apply(0, 3));
        PolicyViolation v = assertThrows(PolicyViolation.class, () -> reject.apply(101, 3));
        assertEquals("retry.max_attempts", v.field());
        assertEquals(500, MaxAttemptsRule.UNBOUNDED.apply(500, 3));
        assertThrows(IllegalArgumentException.class, () -> new MaxAttemptsRule(5, 4, MaxAttemptsRule.Mode.CLAMP));
        assertEquals(3, reset.apply(RetryPolicy.DEFAULT.withMaxAttempts(0), 3).maxAttempts());
    }

    private static void assertField(String field, java.util.Map<String, Object> partial) {
        PolicyViolation v = assertThrows(PolicyViolation.class, () -> RetryPolicy.merge(RetryPolicy.DEFAULT, partial));
        assertEquals(field, v.field(), v.getMessage());
    }
}
