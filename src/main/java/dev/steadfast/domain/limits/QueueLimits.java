package dev.steadfast.domain.limits;

import dev.steadfast.domain.OjsException;
import java.time.Duration;

/**
 * A queue's delivery limits (ojs-rate-limiting.md 5.1, 5.2 and 7.2, at queue level): at most {@code rateLimit}
 * job starts in any {@code ratePeriod}-long interval (a sliding window), and at most {@code concurrency} jobs
 * active at once. A null limit is no limit; {@code 0} stops delivery. Rates are bounded by {@link #MAX_RATE}
 * because the sliding window keeps one instant per start it counts.
 */
public record QueueLimits(Integer rateLimit, Duration ratePeriod, Integer concurrency) {

    public static final int MAX_RATE = 10_000;

    public QueueLimits {
        if ((rateLimit == null) != (ratePeriod == null)) {
            throw OjsException.invalidField("rate.period", "A rate needs both 'limit' and 'period'.");
        }
        if (rateLimit != null && (rateLimit < 0 || rateLimit > MAX_RATE)) {
            throw OjsException.invalidField("rate.limit", "The rate limit must be 0 to " + MAX_RATE + ".",
                    "0 to " + MAX_RATE, String.valueOf(rateLimit));
        }
        if (ratePeriod != null && (ratePeriod.isNegative() || ratePeriod.isZero()
                || ratePeriod.compareTo(Duration.ofDays(1)) > 0)) {
            throw OjsException.invalidField("rate.period", "The rate period must be positive and at most one day.",
                    "PT0.001S to P1D", ratePeriod.toString());
        }
        if (concurrency != null && concurrency < 0) {
            throw OjsException.invalidField("concurrency", "'concurrency' must not be negative.",
                    "0 or more", String.valueOf(concurrency));
        }
    }

    /** The binding's {@code RateLimitPolicy}: {@code max_per_second} starts per second. */
    public static QueueLimits perSecond(int maxPerSecond) {
        return new QueueLimits(maxPerSecond, Duration.ofSeconds(1), null);
    }

    public boolean limited() {
        return rateLimit != null || concurrency != null;
    }
}
