package dev.steadfast.maintenance;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets one caller through at most once per interval, the others go on at once: how FETCH runs a maintenance task
 * beside its claim (lease expiry, job expiry) without every FETCH doing it. Time is an input. A clock that steps
 * back before the last pass lets the next caller through (and counts the interval from there) rather than holding
 * the gate shut until it catches up.
 */
public final class Throttle {

    private final long intervalMs;
    private final AtomicLong next = new AtomicLong(Long.MIN_VALUE);

    public Throttle(Duration interval) {
        this.intervalMs = interval.toMillis();
    }

    /** True for the one caller that may run the task at {@code now}; false while the interval has not passed. */
    public boolean tryPass(Instant now) {
        long at = now.toEpochMilli();
        long due = next.get();
        boolean passes = at >= due || due - at > intervalMs; // due - interval is the last pass
        return passes && next.compareAndSet(due, at + intervalMs);
    }
}
