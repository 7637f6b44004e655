package dev.steadfast.domain.limits;

import java.time.Duration;
import java.time.Instant;

/**
 * A tenant's max_enqueue_rate (ojs-multi-tenancy 8.1): at most {@code limit} jobs pushed per {@code period}, as a
 * token bucket. The bucket holds up to {@code limit} tokens and refills at {@code limit} per {@code period}; a PUSH of
 * n jobs takes n tokens, or is refused whole, told how long until n tokens are there. A full bucket allows a burst of
 * {@code limit} jobs, then the rate; a PUSH larger than {@code limit} can never pass and is told so. The state is
 * kept by the caller (the tenant's row); time is an input.
 */
public record EnqueueRate(int limit, Duration period) {

    /** The shortest and longest periods accepted. */
    public static final Duration MIN_PERIOD = Duration.ofSeconds(1);
    public static final Duration MAX_PERIOD = Duration.ofDays(1);

    public EnqueueRate {
        if (limit < 1 || period.compareTo(MIN_PERIOD) < 0 || period.compareTo(MAX_PERIOD) > 0) {
            throw new IllegalArgumentException("limit " + limit + " per " + period);
        }
    }

    /** What the bucket held at an instant ({@code tokens} null: full). */
    public record Bucket(Double tokens, Instant at) {
    }

    /** The outcome of taking tokens: the bucket to keep, and when refused, how long until the PUSH could pass. */
    public record Take(boolean admitted, Bucket bucket, Duration retryAfter) {
    }

    /** Tokens in {@code b} at {@code now}: refilled at limit per period since it was counted, never above limit. */
    public double tokens(Bucket b, Instant now) {
        if (b == null || b.tokens() == null || b.at() == null) {
            return limit;
        }
        long elapsedMs = Math.max(0, Duration.between(b.at(), now).toMillis());
        return Math.min(limit, b.tokens() + (double) elapsedMs * limit / period.toMillis());
    }

    /**
     * Takes {@code n} tokens at {@code now}: admitted with the bucket less n, or refused with the bucket as refilled
     * and the wait until n tokens are there (a whole period when n is above the limit: it never passes).
     */
    public Take take(Bucket b, int n, Instant now) {
        double have = tokens(b, now);
        Instant at = b == null || b.at() == null || now.isAfter(b.at()) ? now : b.at();
        if (n <= have) {
            return new Take(true, new Bucket(have - n, at), Duration.ZERO);
        }
        Duration wait = n > limit ? period
                : Duration.ofMillis((long) Math.ceil((n - have) * period.toMillis() / limit));
        return new Take(false, new Bucket(have, at), wait);
    }

    /** Jobs pushed within the bucket's memory: the tokens taken and not refilled yet, for statistics. */
    public long used(Bucket b, Instant now) {
        return limit - (long) Math.floor(tokens(b, now));
    }
}
