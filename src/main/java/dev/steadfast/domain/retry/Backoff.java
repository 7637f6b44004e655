package dev.steadfast.domain.retry;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Computes retry delays: the strategy formula (OJS retry spec section 3, Appendix A) or the custom strategy's
 * listed delay (the last one repeating), the
 * {@code max_interval} cap before jitter (RET-04), the {@code [0.5, 1.5)} jitter multiplier
 * (RET-05) and the cap again after jitter (RET-06).
 *
 * <p>{@code retryNumber} n is 1-indexed: retry 1 is attempt 2. Delays are whole microseconds,
 * the resolution of a PostgreSQL {@code timestamptz}, so a stored {@code now + delay} is exact
 * for a microsecond {@code now}. The raw delay rounds to the nearest microsecond; the cap and the
 * jittered delay round down, so neither ever exceeds {@code max_interval}.
 *
 * <p>Overflow: the formula is evaluated in double microseconds, where {@code C^(n-1)} or
 * {@code n^C} may become infinite. The raw delay then saturates at {@link #SATURATED}; every
 * capped or jittered delay is at most {@code max_interval}, itself at most
 * {@link Iso8601Duration#MAX}. Randomness comes only from the caller's generator.
 */
public final class Backoff {

    /** Where {@link #rawDelay} saturates: {@link Long#MAX_VALUE} microseconds, about 292,000 years. */
    public static final Duration SATURATED = Duration.of(Long.MAX_VALUE, ChronoUnit.MICROS);

    /** At most this many rows come back from {@link #schedule}; it is a preview, not a plan. */
    public static final int MAX_SCHEDULE_ROWS = 25;

    static final double JITTER_MIN = 0.5;
    static final double JITTER_BOUND = 1.5;

    private Backoff() {
    }

    /** The strategy formula before any cap, saturating at {@link #SATURATED}. */
    public static Duration rawDelay(RetryPolicy p, int retryNumber) {
        return micros(rawMicros(p, retryNumber));
    }

    /** {@code min(rawDelay, max_interval)}: the delay before jitter (RET-04). */
    public static Duration cappedDelay(RetryPolicy p, int retryNumber) {
        return micros(cappedMicros(p, retryNumber));
    }

    /**
     * The delay to actually wait before retry {@code retryNumber}: the capped delay, times a
     * uniform multiplier from {@code [0.5, 1.5)} when the policy has jitter, capped again at
     * {@code max_interval} and floored at zero. Always within {@link #range}.
     */
    public static Duration delay(RetryPolicy p, int retryNumber, RandomGenerator rnd) {
        long capped = cappedMicros(p, retryNumber);
        if (!p.jitter()) {
            return micros(capped);
        }
        long jittered = (long) Math.floor(capped * jitterMultiplier(rnd));
        return micros(Math.max(0, Math.min(jittered, maxMicros(p))));
    }

    /** The bounds {@link #delay} can take for this retry; see {@link DelayRange}. */
    public static DelayRange range(RetryPolicy p, int retryNumber) {
        long capped = cappedMicros(p, retryNumber);
        if (!p.jitter()) {
            return new DelayRange(micros(capped), micros(capped));
        }
        // Same double arithmetic as delay(): IEEE multiplication is monotonic, so the bounds hold exactly.
        long low = (long) Math.floor(capped * JITTER_MIN);
        long high = Math.min((long) Math.floor(capped * JITTER_BOUND), maxMicros(p));
        return new DelayRange(micros(low), micros(high));
    }

    /** One row per retry, attempts 2..max_attempts, at most {@link #MAX_SCHEDULE_ROWS} rows. */
    public static List<ScheduleRow> schedule(RetryPolicy p) {
        int retries = Math.min(Math.max(p.maxAttempts() - 1, 0), MAX_SCHEDULE_ROWS);
        List<ScheduleRow> rows = new ArrayList<>(retries);
        for (int n = 1; n <= retries; n++) {
            rows.add(new ScheduleRow(n + 1, n, cappedDelay(p, n), range(p, n)));
        }
        return List.copyOf(rows);
    }

    /** A uniform draw from {@code [0.5, 1.5)}; package-private so tests can inspect its distribution. */
    static double jitterMultiplier(RandomGenerator rnd) {
        double u = rnd.nextDouble(JITTER_MIN, JITTER_BOUND);
        // Defends the half-open interval against generators that do not honour the bounded contract.
        if (!(u >= JITTER_MIN)) {
            return JITTER_MIN;
        }
        return u < JITTER_BOUND ? u : Math.nextDown(JITTER_BOUND);
    }

    private static long rawMicros(RetryPolicy p, int n) {
        if (n < 1) {
            throw new IllegalArgumentException("retryNumber is 1-indexed, got " + n);
        }
        if (p.strategy() == BackoffStrategy.CUSTOM) {
            return toMicros(p.intervals().get(Math.min(n, p.intervals().size()) - 1));
        }
        Duration initial = p.initialInterval();
        double initialMicros = initial.getSeconds() * 1e6 + initial.getNano() / 1e3;
        // Math.round saturates at Long.MAX_VALUE for huge or infinite products, which is the overflow guard.
        return Math.round(initialMicros * factor(p, n));
    }

    private static double factor(RetryPolicy p, int n) {
        switch (p.strategy()) {
            case NONE:
                return 1.0;
            case LINEAR:
                return n;
            case POLYNOMIAL:
                return Math.pow(n, p.backoffCoefficient());
            case CUSTOM:
                throw new IllegalStateException("custom delays are listed, not computed");
            case EXPONENTIAL:
            default:
                return Math.pow(p.backoffCoefficient(), n - 1);
        }
    }

    private static long cappedMicros(RetryPolicy p, int n) {
        return Math.min(rawMicros(p, n), maxMicros(p));
    }

    private static long maxMicros(RetryPolicy p) {
        // Rounds down so the cap never exceeds max_interval; cannot overflow below Iso8601Duration.MAX.
        return p.maxInterval().getSeconds() * 1_000_000L + p.maxInterval().getNano() / 1_000;
    }

    /** Whole microseconds, rounded down; cannot overflow below {@link Iso8601Duration#MAX}. */
    private static long toMicros(Duration d) {
        return d.getSeconds() * 1_000_000L + d.getNano() / 1_000;
    }

    private static Duration micros(long micros) {
        return Duration.of(micros, ChronoUnit.MICROS);
    }
}
