package dev.steadfast.domain.limits;

import dev.steadfast.domain.limits.RateLimitPolicy.Window;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The rate limit rule of a key (ojs-rate-limiting.md 5), decided without I/O from the key's policy, what its
 * partition remembers, the key's active jobs and the instant: how many of its jobs may start now, what the
 * partition remembers after they started, and when the next one may start. Every limit must be satisfied
 * (4.2): concurrency and the sliding window are {@link Allowance}'s arithmetic; the throttle lets one job start
 * per {@code period / limit}, so one claim starts at most one job of a throttled key.
 */
public final class RateLimitRule {

    private RateLimitRule() {
    }

    /** At most {@code wanted} of the key's jobs, within every limit (never negative). */
    public static int allowance(RateLimitPolicy p, PartitionState s, long active, Instant now, int wanted) {
        int n = Allowance.of(p.windowAndCeiling(), s.starts(), active, now, wanted);
        if (p.throttle() != null) {
            n = throttleAllows(p.throttle(), s.lastStart(), now) ? Math.min(n, 1) : 0;
        }
        return n;
    }

    /**
     * Which limit holds the key at {@code now} (none when one more job may start): {@code strategy} is
     * {@code concurrency}, {@code rate} or {@code throttle} (the first that holds, in that order), with its limit and
     * the count that reached it (for the throttle, the start still inside its spacing).
     */
    public static Hold hold(RateLimitPolicy p, PartitionState s, long active, Instant now) {
        if (p.concurrency() != null && active >= p.concurrency()) {
            return new Hold("concurrency", p.concurrency(), active);
        }
        if (p.rate() != null && counted(p, s, now) >= p.rate().limit()) {
            return new Hold("rate", p.rate().limit(), counted(p, s, now));
        }
        if (p.throttle() != null && !throttleAllows(p.throttle(), s.lastStart(), now)) {
            return new Hold("throttle", p.throttle().limit(), p.throttle().limit() == 0 ? 0 : 1);
        }
        return null;
    }

    /** A limit that holds a key: ojs-rate-limiting 11.1's {@code strategy}, {@code limit} and {@code current}. */
    public record Hold(String strategy, long limit, long current) {
    }

    /** The partition after {@code started} of the key's jobs started at {@code now}. */
    public static PartitionState after(RateLimitPolicy p, PartitionState s, Instant now, int started) {
        if (started == 0) {
            return s;
        }
        return new PartitionState(Allowance.after(p.windowAndCeiling(), s.starts(), now, started), now);
    }

    /** Starts the sliding window counts at {@code now}. */
    public static int counted(RateLimitPolicy p, PartitionState s, Instant now) {
        return p.rate() == null ? 0 : recent(p.rate(), s.starts(), now).size();
    }

    /**
     * When the window and the throttle next allow a start: {@code now} when they allow one now, null when a limit
     * of 0 never will. Concurrency is left out: a slot frees when an active job finishes, which no clock predicts.
     */
    public static Instant nextStart(RateLimitPolicy p, PartitionState s, Instant now) {
        Instant next = now;
        if (p.rate() != null) {
            Instant r = windowFrees(p.rate(), s.starts(), now);
            if (r == null) {
                return null;
            }
            next = later(next, r);
        }
        if (p.throttle() != null) {
            Duration gap = p.throttle().spacing();
            if (gap == null) {
                return null;
            }
            if (s.lastStart() != null) {
                next = later(next, s.lastStart().plus(gap));
            }
        }
        return next;
    }

    /** When the oldest start the window counts at {@code now} stops counting; null when it counts none. */
    public static Instant windowResetsAt(Window w, List<Instant> starts, Instant now) {
        List<Instant> recent = recent(w, starts, now);
        return recent.isEmpty() ? null : recent.get(0).plus(w.period());
    }

    private static Instant windowFrees(Window w, List<Instant> starts, Instant now) {
        if (w.limit() == 0) {
            return null;
        }
        List<Instant> recent = recent(w, starts, now);
        if (recent.size() < w.limit()) {
            return now;
        }
        // the start that must leave the window so that fewer than limit remain
        return recent.get(recent.size() - w.limit()).plus(w.period());
    }

    private static boolean throttleAllows(Window t, Instant last, Instant now) {
        Duration gap = t.spacing();
        return gap != null && (last == null || !now.isBefore(last.plus(gap)));
    }

    private static List<Instant> recent(Window w, List<Instant> starts, Instant now) {
        Instant since = now.minus(w.period());
        return starts.stream().filter(s -> s.isAfter(since)).sorted().toList();
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
