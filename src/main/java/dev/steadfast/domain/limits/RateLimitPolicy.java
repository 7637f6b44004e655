package dev.steadfast.domain.limits;

import dev.steadfast.domain.OjsException;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * A job's rate limit partition (ojs-rate-limiting.md 6): every job naming the same {@code key} shares its limits.
 * {@code concurrency}: at most this many of the key's jobs active at once (5.1); {@code rate}: at most
 * {@code rate.limit} starts in any {@code rate.period}-long interval, a sliding window (5.2); {@code throttle}:
 * starts at least {@code throttle.period / throttle.limit} apart (5.3). A null strategy is no limit; a limit of
 * {@code 0} stops the key. Only {@code on_limit: "wait"} exists here: a held job stays available.
 */
public record RateLimitPolicy(String key, Integer concurrency, Window rate, Window throttle) {

    /** ojs-rate-limiting.md 6.2. */
    public static final Pattern KEY = Pattern.compile("^[a-zA-Z0-9][a-zA-Z0-9._:-]*$");
    public static final int MAX_KEY_LENGTH = 255;

    /** {@code limit} starts per {@code period}. */
    public record Window(int limit, Duration period) {

        /** The longest period a window may have: the sliding window keeps one instant per start it counts. */
        public static final Duration MAX_PERIOD = Duration.ofDays(1);

        public Window {
            if (limit < 0 || limit > QueueLimits.MAX_RATE || period == null || period.isNegative() || period.isZero()
                    || period.compareTo(MAX_PERIOD) > 0) {
                throw new IllegalArgumentException("limit " + limit + " per " + period);
            }
        }

        /** A window read from the field {@code field} of a request: 400 naming the field when out of range. */
        public static Window of(String field, long limit, Duration period) {
            if (limit < 0 || limit > QueueLimits.MAX_RATE) {
                throw OjsException.invalidField(field + ".limit", "'" + field + ".limit' must be 0 to "
                        + QueueLimits.MAX_RATE + ".", "0 to " + QueueLimits.MAX_RATE, String.valueOf(limit));
            }
            if (period.isNegative() || period.isZero() || period.compareTo(MAX_PERIOD) > 0) {
                throw OjsException.invalidField(field + ".period", "'" + field
                        + ".period' must be positive and at most one day.", "PT0.001S to P1D", period.toString());
            }
            return new Window((int) limit, period);
        }

        /** The throttle's spacing between two starts; a limit of 0 never allows one. */
        public Duration spacing() {
            return limit == 0 ? null : period.dividedBy(limit);
        }
    }

    public RateLimitPolicy {
        checkKey("options.rate_limit.key", key);
        if (concurrency != null && concurrency < 0) {
            throw OjsException.invalidField("options.rate_limit.concurrency",
                    "'options.rate_limit.concurrency' must not be negative.", "0 or more", String.valueOf(concurrency));
        }
    }

    /** {@code key} when it is a valid rate limit key; 400 naming {@code field} otherwise. */
    public static String checkKey(String field, String key) {
        if (key == null || key.length() > MAX_KEY_LENGTH || !KEY.matcher(key).matches()) {
            throw OjsException.invalidField(field, "'" + field + "' must match " + KEY.pattern()
                    + " and hold at most " + MAX_KEY_LENGTH + " characters.", KEY.pattern(),
                    key == null ? "missing" : key.length() > 40 ? key.substring(0, 40) + "..." : key);
        }
        return key;
    }

    /** The sliding window and ceiling {@link Allowance} applies (the queue limits' arithmetic, reused). */
    QueueLimits windowAndCeiling() {
        return new QueueLimits(rate == null ? null : rate.limit(), rate == null ? null : rate.period(), concurrency);
    }
}
