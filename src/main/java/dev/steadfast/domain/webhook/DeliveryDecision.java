package dev.steadfast.domain.webhook;

import dev.steadfast.domain.retry.Backoff;
import dev.steadfast.domain.retry.BackoffStrategy;
import dev.steadfast.domain.retry.OnExhaustion;
import dev.steadfast.domain.retry.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * What one delivery attempt leads to (ojs-webhooks 7.1 and 7.2), decided without I/O from the attempt's number and
 * result, the instant and the schedule:
 * <ul>
 *   <li>2xx: delivered;</li>
 *   <li>410 Gone: dead, and the subscription is switched off (the receiver says the endpoint no longer exists);</li>
 *   <li>any other 4xx but 429: dead at once (a client error is not retried);</li>
 *   <li>429: retried after its {@code Retry-After} when it sent one (at most {@link #MAX_RETRY_AFTER}), else as
 *       the schedule says;</li>
 *   <li>5xx, 3xx left over (more than three redirects, or one without a Location), a timeout, a connection error:
 *       retried as the schedule says;</li>
 *   <li>a target refused (a private address, a bad redirect): dead at once;</li>
 * </ul>
 * and whatever would be retried is dead once the schedule's attempts are spent. The schedule is the spec's table
 * (immediately, then 30 s, 2 min, 10 min, 1 h, 4 h, 12 h, 24 h: 8 attempts over about 41 hours) written as a
 * custom-strategy {@link RetryPolicy}, so the delay is the job retries' {@link Backoff}, jitter included when asked.
 */
public final class DeliveryDecision {

    /** The spec's delays before attempts 2 to 8. */
    public static final List<Duration> SPEC_DELAYS = List.of(Duration.ofSeconds(30), Duration.ofMinutes(2),
            Duration.ofMinutes(10), Duration.ofHours(1), Duration.ofHours(4), Duration.ofHours(12),
            Duration.ofHours(24));
    public static final Duration MAX_RETRY_AFTER = Duration.ofHours(24);

    /** What became of a delivery. */
    public enum Kind { DELIVERED, RETRY, DEAD }

    /** The decision: its kind, when the next attempt is due (RETRY only), and whether the subscription is gone. */
    public record Outcome(Kind kind, Instant nextAttemptAt, boolean subscriptionGone) {
    }

    /** What an attempt got back: an HTTP status (0 when there was none), or the failure's kind. */
    public record Result(int status, Failure failure, Duration retryAfter) {

        public static Result answered(int status, Duration retryAfter) {
            return new Result(status, null, retryAfter);
        }

        public static Result failed(Failure f) {
            return new Result(0, f, null);
        }
    }

    /** How an attempt failed without a usable answer. */
    public enum Failure { TIMEOUT, CONNECTION, REDIRECTS, TARGET_REFUSED }

    private DeliveryDecision() {
    }

    /** The spec's schedule over {@code maxAttempts} attempts (the spec recommends 8; at least 5 are required). */
    public static RetryPolicy schedule(int maxAttempts, boolean jitter) {
        return schedule(maxAttempts, jitter, SPEC_DELAYS);
    }

    /**
     * A schedule of other delays (before attempts 2, 3, ...; the last repeats): for endpoints inside one's own
     * network, which need not wait the spec's 30 s, and for measuring the delivery path.
     */
    public static RetryPolicy schedule(int maxAttempts, boolean jitter, List<Duration> delays) {
        Duration max = delays.stream().max(Duration::compareTo).orElseThrow();
        return new RetryPolicy(maxAttempts, delays.get(0), 1.0, max, jitter, List.of(), OnExhaustion.DISCARD,
                BackoffStrategy.CUSTOM, delays);
    }

    /** The outcome of attempt {@code attempt} (1 for the first) that got {@code r} at {@code now}. */
    public static Outcome decide(int attempt, Result r, Instant now, RetryPolicy schedule, RandomGenerator rnd) {
        int s = r.status();
        if (s >= 200 && s < 300) {
            return new Outcome(Kind.DELIVERED, null, false);
        }
        if (s == 410) {
            return new Outcome(Kind.DEAD, null, true);
        }
        if (s >= 400 && s < 500 && s != 429 || r.failure() == Failure.TARGET_REFUSED) {
            return new Outcome(Kind.DEAD, null, false);
        }
        if (attempt >= schedule.maxAttempts()) {
            return new Outcome(Kind.DEAD, null, false);
        }
        Duration delay = s == 429 && r.retryAfter() != null
                ? min(r.retryAfter(), MAX_RETRY_AFTER)
                : Backoff.delay(schedule, attempt, rnd);
        return new Outcome(Kind.RETRY, now.plus(delay), false);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? (a.isNegative() ? Duration.ZERO : a) : b;
    }
}
