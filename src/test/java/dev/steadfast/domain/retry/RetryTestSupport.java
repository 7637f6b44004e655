package dev.steadfast.domain.retry;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Shared fixtures for the retry tests: compact policy construction, JSON-like maps that allow
 * null values (Map.of does not), and a random generator whose draws the test chooses.
 */
final class RetryTestSupport {

    private RetryTestSupport() {
    }

    static RetryPolicy policy(BackoffStrategy strategy, Duration initial, double coefficient, Duration max,
            boolean jitter) {
        return new RetryPolicy(10, initial, coefficient, max, jitter, List.of(), OnExhaustion.DISCARD, strategy);
    }

    static RetryPolicy noJitter(BackoffStrategy strategy, String initial, double coefficient, String max) {
        return policy(strategy, Iso8601Duration.parse("t", initial), coefficient, Iso8601Duration.parse("t", max), false);
    }

    /** Builds a mutable map from alternating keys and values; values may be null. */
    static Map<String, Object> json(Object... keysAndValues) {
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    static Duration seconds(double s) {
        return Duration.ofNanos(Math.round(s * 1e9));
    }

    /**
     * Returns the given unit-interval values from nextDouble() in turn (cycling), so the jitter
     * multiplier is 0.5 + value. Other draws are unsupported on purpose: Backoff must use nextDouble.
     */
    static final class FixedRandom implements RandomGenerator {
        private final double[] values;
        private int next;

        FixedRandom(double... values) {
            this.values = values.clone();
        }

        @Override
        public double nextDouble() {
            double v = values[next];
            next = (next + 1) % values.length;
            return v;
        }

        @Override
        public long nextLong() {
            throw new UnsupportedOperationException("only nextDouble() is scripted");
        }
    }
}
