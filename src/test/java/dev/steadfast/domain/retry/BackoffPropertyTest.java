package dev.steadfast.domain.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Seeded property tests: over many random valid policies and retry numbers, delay() stays inside
 * its DelayRange, under max_interval, non-negative, and equals the capped delay without jitter;
 * the jitter multiplier is uniform-looking over [0.5, 1.5) and never reaches 1.5.
 */
class BackoffPropertyTest {

    private static final int CASES = 25_000;
    private static final long MIN_INITIAL_MS = 1;
    private static final long MAX_INITIAL_MS = Duration.ofMinutes(10).toMillis();

    @Test
    @DisplayName("delay() lies in [range.min, range.max], <= max_interval, >= 0; without jitter it equals cappedDelay")
    void delayStaysWithinItsBounds() {
        Random random = new Random(20260219L);
        int jittered = 0;
        for (int i = 0; i < CASES; i++) {
            RetryPolicy p = randomPolicy(random);
            int n = 1 + random.nextInt(60);
            Duration delay = Backoff.delay(p, n, random);
            DelayRange range = Backoff.range(p, n);
            Supplier<String> ctx = () -> p + " n=" + n + " delay=" + delay + " range=" + range;
            assertTrue(range.contains(delay), ctx);
            assertTrue(delay.compareTo(p.maxInterval()) <= 0, ctx);
            assertFalse(delay.isNegative(), ctx);
            assertTrue(range.max().compareTo(p.maxInterval()) <= 0, ctx);
            assertTrue(Backoff.cappedDelay(p, n).compareTo(Backoff.rawDelay(p, n)) <= 0, ctx);
            if (p.jitter()) {
                jittered++;
            } else {
                assertEquals(Backoff.cappedDelay(p, n), delay, ctx);
                assertEquals(range.min(), range.max(), ctx);
            }
        }
        assertTrue(jittered > CASES / 3 && jittered < CASES * 2 / 3, "both jitter settings exercised: " + jittered);
    }

    @Test
    @DisplayName("extreme multipliers (0.5 and just below 1.5) still land inside the range")
    void extremeMultipliersStayInRange() {
        Random random = new Random(99L);
        RandomGenerator lowest = new RetryTestSupport.FixedRandom(0.0);
        RandomGenerator highest = new RetryTestSupport.FixedRandom(Math.nextDown(1.0));
        for (int i = 0; i < CASES; i++) {
            RetryPolicy p = randomPolicy(random);
            int n = 1 + random.nextInt(60);
            DelayRange range = Backoff.range(p, n);
            assertTrue(range.contains(Backoff.delay(p, n, lowest)), () -> p + " n=" + n);
            assertTrue(range.contains(Backoff.delay(p, n, highest)), () -> p + " n=" + n);
        }
    }

    @Test
    @DisplayName("jitter multiplier covers both halves of [0.5, 1.5) evenly and never reaches 1.5")
    void jitterMultiplierDistribution() {
        Random random = new Random(4242L);
        int samples = 200_000;
        int[] deciles = new int[10];
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (int i = 0; i < samples; i++) {
            double u = Backoff.jitterMultiplier(random);
            if (!(u >= 0.5 && u < 1.5)) {
                throw new AssertionError("multiplier out of [0.5, 1.5): " + u);
            }
            deciles[(int) ((u - 0.5) * 10)]++;
            min = Math.min(min, u);
            max = Math.max(max, u);
        }
        int lowerHalf = deciles[0] + deciles[1] + deciles[2] + deciles[3] + deciles[4];
        assertEquals(0.5, lowerHalf / (double) samples, 0.01, "lower half share");
        for (int count : deciles) {
            assertEquals(0.1, count / (double) samples, 0.005, "decile share");
        }
        assertTrue(min < 0.501 && max > 1.499, "spans the interval: [" + min + ", " + max + "]");
    }

    @Test
    @DisplayName("a generator at the top of its range still yields a multiplier below 1.5")
    void multiplierNeverReachesTheBound() {
        RandomGenerator maxLong = () -> -1L;
        RandomGenerator maxDouble = new RetryTestSupport.FixedRandom(Math.nextDown(1.0));
        RandomGenerator broken = new RetryTestSupport.FixedRandom(1.0);
        for (RandomGenerator g : List.of(maxLong, maxDouble, broken)) {
            double u = Backoff.jitterMultiplier(g);
            assertTrue(u < 1.5 && u >= 0.5, "got " + u);
        }
    }

    static RetryPolicy randomPolicy(Random random) {
        BackoffStrategy[] strategies = BackoffStrategy.values();
        Duration initial = Duration.ofMillis(MIN_INITIAL_MS + (long) (random.nextDouble() * (MAX_INITIAL_MS - MIN_INITIAL_MS)));
        if (random.nextInt(10) == 0) {
            initial = initial.plusNanos(random.nextInt(1_000_000));
        }
        double coefficient = random.nextInt(10) == 0 ? 1.0 + random.nextInt(10) : 1.0 + random.nextDouble() * 9.0;
        Duration max = initial.multipliedBy(1 + random.nextInt(1_000)).plusMillis(random.nextInt(1_000));
        if (random.nextInt(20) == 0) {
            max = initial;
        }
        BackoffStrategy strategy = strategies[random.nextInt(strategies.length)];
        List<Duration> intervals = new java.util.ArrayList<>();
        if (strategy == BackoffStrategy.CUSTOM) {
            for (int i = 1 + random.nextInt(20); i > 0; i--) {
                intervals.add(Duration.ofNanos(1 + (long) (random.nextDouble() * (max.toNanos() - 1))));
            }
        }
        return new RetryPolicy(1 + random.nextInt(100), initial, coefficient, max, random.nextBoolean(), List.of(),
                OnExhaustion.DISCARD, strategy, intervals);
    }
}
