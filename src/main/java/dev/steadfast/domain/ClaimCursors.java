package dev.steadfast.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a queue's next claim starts reading its claim index, per queue, on this instance.
 *
 * <p>Why: a claimed or finished job leaves its entry in the claim index until vacuum removes it, and while any
 * session holds the vacuum horizon (an idle transaction, a long report, a replication slot) vacuum removes nothing
 * and no scan may mark those entries dead. A claim that starts at the head of its queue's band then visits every job
 * claimed since the horizon was taken, one heap fetch each: measured, 0.09 ms (123 buffers) per claim before a
 * 180 s hold at 1,000 jobs/s and 213 ms (81,836 buffers) at its end. Claims go in order (priority, then run_at, then
 * id), so the entries the last claim passed are those of jobs already taken: the next claim of the same band starts
 * where the last one ended instead, {@link #lookback} earlier.
 *
 * <p>What it may miss, and how it still finds it: a job whose key sorts before where a claim starts, i.e. one that
 * became claimable after claims had passed its key. Every writer that makes a job claimable sets its run_at to its
 * own now or later (PUSH, retries, snoozes, lease expiry, re-enqueues, workflow and cron activations), so that
 * happens only when its transaction committed after a claim that started later had passed (covered by the
 * look-back), when a claim skipped it because something else held its row lock then (the promoter, an operator's
 * bulk action, a claim that rolled back), for a tenant's jobs left out while the tenant was at its limit, or across
 * instances whose clocks disagree by more than the look-back. For all of those, a claim reads the whole band again
 * (a full claim) once every {@link #fullEvery} per queue and instance, and whenever this instance has no cursor for
 * the queue or its clock went back: such a job waits at most that long, and is never lost.
 *
 * <p>A full claim reads every entry vacuum may not remove yet, so under a held horizon it grows slow (100-240 ms a
 * claim measured after two minutes at 1,000 jobs/s): the next one comes no sooner than {@code fullCostShare} times
 * the last one's duration ({@link #FULL_COST_SHARE} by default), so reading from the head takes at most 1/50 of a
 * queue's time on an instance; when full claims are cheap, as they are without a held horizon, that is every
 * {@code fullEvery}.
 *
 * <p>The cursor is a hint for this instance's claims only: the claim statement's state guard and row locks alone
 * decide who gets a job, so no cursor can hand a job out twice. Several FETCHes of one queue run at once: a full
 * claim sets the cursor where it ended, the others only move it forward within a band or to the band they ended in.
 * A claim never starts after its own now (less the look-back), whatever the cursor says.
 *
 * <p>Pure: takes the time as an input.
 */
public final class ClaimCursors {

    /** A job's place in claim order: priority (higher first), then run_at, then id. */
    public record Key(int priority, Instant runAt, UUID id) {

        /** Claim order within one priority band. */
        static final Comparator<Key> IN_BAND = Comparator.comparing(Key::runAt).thenComparing(Key::id);
    }

    /**
     * Where one claim starts: {@code full} reads the queue from its head; otherwise the claim reads the priorities
     * above {@code priority} whole, that priority from {@code fromRunAt} on, and the priorities below whole.
     */
    public record Start(boolean full, int priority, Instant fromRunAt) {

        static final Start FULL = new Start(true, 0, null);
    }

    /** The default of how many times its own duration a full claim (and a full sweep, {@link SweepFloor}) waits. */
    public static final int FULL_COST_SHARE = 50;

    private final Duration lookback;
    private final Duration fullEvery;
    private final int fullCostShare;
    private final ConcurrentHashMap<String, Cursor> cursors = new ConcurrentHashMap<>();

    /**
     * @param lookback how far before the last claimed run_at a claim starts (zero: exactly there)
     * @param fullEvery how often a claim of a queue reads the whole queue (zero: always, no cursor at all)
     * @param fullCostShare how many times its own duration a full claim waits at least (zero: {@code fullEvery} only)
     */
    public ClaimCursors(Duration lookback, Duration fullEvery, int fullCostShare) {
        if (lookback.isNegative() || fullEvery.isNegative() || fullCostShare < 0) {
            throw new IllegalArgumentException("negative claim cursor settings");
        }
        this.lookback = lookback;
        this.fullEvery = fullEvery;
        this.fullCostShare = fullCostShare;
    }

    /** Where the claim of {@code queue} that starts at {@code now} reads from. */
    public Start start(String queue, Instant now) {
        if (fullEvery.isZero()) {
            return Start.FULL;
        }
        return cursors.computeIfAbsent(queue, q -> new Cursor()).start(now);
    }

    /**
     * Records what a claim of {@code queue} that read from {@code from} took: {@code last} is the key of the last
     * job it claimed in claim order (null when it took nothing, which changes nothing). A full claim sets the cursor
     * there (it read the queue from its head); any other moves it forward only, within a band.
     */
    public void claimed(String queue, Start from, Key last) {
        if (last == null || fullEvery.isZero()) {
            return;
        }
        cursors.computeIfAbsent(queue, q -> new Cursor()).moveTo(last, from.full());
    }

    /**
     * Records how long a full claim of {@code queue} took, so the next one waits {@code fullCostShare} times that if
     * it is longer than {@code fullEvery}.
     */
    public void fullClaimTook(String queue, Duration took) {
        if (fullEvery.isZero()) {
            return;
        }
        cursors.computeIfAbsent(queue, q -> new Cursor()).fullTook(took);
    }

    /** The interval before the next full read: {@code fullEvery}, or {@code share} times a slow last one (never less). */
    static Duration fullInterval(Duration fullEvery, Duration lastFullTook, int share) {
        Duration paced = lastFullTook.multipliedBy(share);
        return paced.compareTo(fullEvery) > 0 ? paced : fullEvery;
    }

    /** Forgets every cursor: the next claim of every queue is a full one. */
    public void forget() {
        cursors.clear();
    }

    private final class Cursor {

        private Key at;
        private Instant fullAt;
        private Duration fullTook = Duration.ZERO;

        synchronized Start start(Instant now) {
            if (at == null || fullAt == null || now.isBefore(fullAt)
                    || !now.isBefore(fullAt.plus(fullInterval(fullEvery, fullTook, fullCostShare)))) {
                fullAt = now;
                return Start.FULL;
            }
            // never after now: a cursor left ahead by a clock that went back would pass over new jobs
            Instant from = at.runAt().isAfter(now) ? now : at.runAt();
            return new Start(false, at.priority(), from.minus(lookback));
        }

        synchronized void fullTook(Duration took) {
            fullTook = took;
        }

        synchronized void moveTo(Key last, boolean full) {
            if (full || at == null || at.priority() != last.priority() || Key.IN_BAND.compare(last, at) > 0) {
                at = last;
            }
        }
    }
}
