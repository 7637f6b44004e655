package dev.steadfast.events;

import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * Vert.x timers for instants, grouped: instants of one key in one bucket of {@code bucketMs} share a timer, which
 * fires {@code marginMs} after the bucket's end (so the instant has passed by then, by the database's clock too);
 * instants further ahead than {@code horizon} and timers beyond {@code max} pending are not set (whoever asks has a
 * slower path that finds them: polling, the scheduled tick). A burst of many instants thus costs few timers.
 * Used for due jobs ({@link WorkSignal#dueAt}) and lease ends ({@code work.LeaseExpiry}).
 */
public final class BucketTimers {

    private final Vertx vertx;
    private final Clock clock;
    private final long bucketMs;
    private final long marginMs;
    private final long horizonMs;
    private final int max;
    private final Set<String> pending = new HashSet<>();

    public BucketTimers(Vertx vertx, Clock clock, long bucketMs, long marginMs, Duration horizon, int max) {
        this.vertx = vertx;
        this.clock = clock;
        this.bucketMs = bucketMs;
        this.marginMs = marginMs;
        this.horizonMs = horizon.toMillis();
        this.max = max;
    }

    /**
     * Runs {@code action} once the bucket of {@code at} has ended (plus the margin), unless a timer for that key and
     * bucket is pending already, {@code at} is beyond the horizon or {@code max} timers are pending; answers whether
     * this call set a timer.
     */
    public boolean at(String key, Instant at, Runnable action) {
        long now = clock.millis();
        if (at.toEpochMilli() - now > horizonMs) {
            return false;
        }
        long bucketEnd = (Math.floorDiv(at.toEpochMilli(), bucketMs) + 1) * bucketMs;
        long delay = bucketEnd + marginMs - now;
        String id = key + "@" + bucketEnd;
        synchronized (this) {
            if (pending.size() >= max || !pending.add(id)) {
                return false;
            }
        }
        vertx.setTimer(Math.max(1, delay), t -> {
            synchronized (this) {
                pending.remove(id);
            }
            action.run();
        });
        return true;
    }

    /** Timers pending now (tests, metrics). */
    public synchronized int pending() {
        return pending.size();
    }
}
