package dev.steadfast.domain;

import java.time.Duration;
import java.time.Instant;

/**
 * Where a sweep over a time-ordered index starts: the lease reaper's {@code lease_check_at <= now} (the time it next
 * looks at an active job; the lease's end until V36), on this instance. The same reason as {@link ClaimCursors}: while a session holds the vacuum horizon, every lease that ended
 * (acked or not) leaves its entry in the lease index, and a sweep from the head visits them all, heap fetch by heap
 * fetch, however often it runs (FETCH, the lease-end timers and the scheduled reaper run it many times a second).
 *
 * <p>Every check time is written after its writer's now (a claim: now plus the visibility or execution timeout; the
 * reaper, finding a lease a heartbeat extended: the lease's end, after its now), so a lease that ended by the time of
 * a sweep that finished had been
 * seen by it, unless its row was locked then (an ACK in flight, another instance's sweep) and that lock went away
 * without ending the lease. A sweep therefore starts at the {@code now} of the latest finished sweep, less
 * {@code lookback} (clocks of instances and commits that lag); every {@code fullEvery}, when there is no finished
 * sweep yet and when the clock went back, it reads from the head ({@link #from} answers null), so such a lease waits
 * at most that long; after a slow sweep from the head (a held horizon), no sooner than
 * {@code fullCostShare} times its duration, as for claims. Pure: takes the time as an input.
 */
public final class SweepFloor {

    private final Duration lookback;
    private final Duration fullEvery;
    private final int fullCostShare;
    private Instant sweptTo;
    private Instant fullAt;
    private Duration fullTook = Duration.ZERO;

    /**
     * @param lookback how far before the last finished sweep's now a sweep starts
     * @param fullEvery how often a sweep reads from the head (zero: always)
     * @param fullCostShare how many times its own duration a sweep from the head waits at least (zero: none)
     */
    public SweepFloor(Duration lookback, Duration fullEvery, int fullCostShare) {
        if (lookback.isNegative() || fullEvery.isNegative() || fullCostShare < 0) {
            throw new IllegalArgumentException("negative sweep floor settings");
        }
        this.lookback = lookback;
        this.fullEvery = fullEvery;
        this.fullCostShare = fullCostShare;
    }

    /** The earliest key the sweep at {@code now} reads (exclusive); null: from the head. */
    public synchronized Instant from(Instant now) {
        if (fullEvery.isZero() || sweptTo == null || fullAt == null || now.isBefore(fullAt)
                || !now.isBefore(fullAt.plus(ClaimCursors.fullInterval(fullEvery, fullTook, fullCostShare)))) {
            fullAt = now;
            return null;
        }
        return (sweptTo.isAfter(now) ? now : sweptTo).minus(lookback);
    }

    /**
     * The sweep that started at {@code now} went through to its end, in {@code took}; {@code full}: it read from the
     * head ({@link #from} answered null), and the next such sweep waits for as {@link ClaimCursors} says.
     */
    public synchronized void swept(Instant now, boolean full, Duration took) {
        if (full) {
            fullTook = took;
        }
        swept(now);
    }

    /** The sweep that started at {@code now} went through to its end. */
    public synchronized void swept(Instant now) {
        if (sweptTo == null || now.isAfter(sweptTo)) {
            sweptTo = now;
        }
    }

    /** Forgets every sweep: the next one reads from the head. */
    public synchronized void forget() {
        sweptTo = null;
        fullAt = null;
        fullTook = Duration.ZERO;
    }
}
