package dev.steadfast.queues;

import dev.steadfast.domain.limits.RateLimitPolicy;
import dev.steadfast.domain.limits.RateLimitRule;
import dev.steadfast.store.queues.RateLimitRow;
import java.time.Instant;

/**
 * A rate limit partition as GET /ojs/v1/rate-limits/{key} shows it (ojs-rate-limiting.md 10.1), at one instant.
 *
 * @param counted        starts the sliding window counts now (0 without a rate)
 * @param windowResetsAt when the oldest counted start leaves the window, or null when none is counted
 * @param nextStartAt    when the window and the throttle next allow a start (now when they do; null when a limit
 *                       of 0 never will); concurrency aside
 */
public record RateLimitStatus(RateLimitPolicy policy, long active, long waiting, int counted, Instant windowResetsAt,
                              Instant nextStartAt, Instant at) {

    static RateLimitStatus of(RateLimitRow row, Instant now) {
        RateLimitPolicy p = row.policy();
        return new RateLimitStatus(p, row.active(), row.waiting(), RateLimitRule.counted(p, row.state(), now),
                p.rate() == null ? null : RateLimitRule.windowResetsAt(p.rate(), row.state().starts(), now),
                RateLimitRule.nextStart(p, row.state(), now), now);
    }

    /**
     * The X-RateLimit-* triple (ojs-rate-limiting.md 10.4) for this partition: of its strategies, the rate window
     * when it has one, else the throttle, else concurrency. Reset: when at least one more start is allowed (Unix
     * seconds, rounded up; now when one is allowed now, or when only concurrency limits the key).
     */
    public Headers headers() {
        long reset = nextStartAt == null ? at.getEpochSecond() : ceilSeconds(nextStartAt);
        if (policy.rate() != null) {
            return new Headers(policy.rate().limit(), Math.max(0, policy.rate().limit() - counted), reset);
        }
        if (policy.throttle() != null) {
            boolean now = nextStartAt != null && !nextStartAt.isAfter(at);
            return new Headers(policy.throttle().limit(), now ? 1 : 0, reset);
        }
        int limit = policy.concurrency() == null ? 0 : policy.concurrency();
        return new Headers(limit, Math.max(0, limit - active), at.getEpochSecond());
    }

    /** X-RateLimit-Limit, -Remaining and -Reset. */
    public record Headers(long limit, long remaining, long reset) {
    }

    private static long ceilSeconds(Instant i) {
        return i.getNano() == 0 ? i.getEpochSecond() : i.getEpochSecond() + 1;
    }
}
