package dev.steadfast.queues;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.domain.limits.RateLimitPolicy;
import dev.steadfast.http.Timestamps;

/**
 * A rate-limit key's state (ojs-rate-limiting.md): {@code concurrency}, {@code rate} and {@code throttle} are
 * null when the key's policy has none, {@code window_resets_at} and {@code next_allowed_at} null when not known.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
record RateLimitView(String key, Concurrency concurrency, Rate rate, Throttle throttle, long waitingCount) {

    record Concurrency(int limit, long active, long available) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Rate(int limit, String period, int currentCount, String windowResetsAt) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Throttle(int limit, String period, String nextAllowedAt) {
    }

    static RateLimitView of(RateLimitStatus s) {
        RateLimitPolicy p = s.policy();
        return new RateLimitView(p.key(),
                p.concurrency() == null ? null : new Concurrency(p.concurrency(), s.active(),
                        Math.max(0, p.concurrency() - s.active())),
                p.rate() == null ? null : new Rate(p.rate().limit(), p.rate().period().toString(), s.counted(),
                        Timestamps.format(s.windowResetsAt())),
                p.throttle() == null ? null : new Throttle(p.throttle().limit(), p.throttle().period().toString(),
                        Timestamps.format(s.nextStartAt())),
                s.waiting());
    }
}
