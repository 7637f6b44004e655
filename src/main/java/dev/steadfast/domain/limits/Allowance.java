package dev.steadfast.domain.limits;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How many jobs one FETCH may start from a limited queue, decided without I/O from the queue's limits, the start
 * instants its sliding window still remembers, the jobs active in it and the instant. The window: a start counts
 * while it is less than {@code ratePeriod} old, so no {@code ratePeriod}-long interval ever holds more than
 * {@code rateLimit} starts (no burst at a window boundary, unlike a fixed window).
 */
public final class Allowance {

    private Allowance() {
    }

    /** At most {@code wanted} jobs, within every limit (never negative). */
    public static int of(QueueLimits limits, List<Instant> starts, long active, Instant now, int wanted) {
        long n = wanted;
        if (limits.rateLimit() != null) {
            n = Math.min(n, limits.rateLimit() - recent(limits, starts, now).size());
        }
        if (limits.concurrency() != null) {
            n = Math.min(n, limits.concurrency() - active);
        }
        return (int) Math.max(0, n);
    }

    /**
     * The window after {@code started} jobs started at {@code now}: the recent starts plus the new ones, the oldest
     * dropped beyond {@code rateLimit} (they can no longer decide anything). Empty for a queue without a rate.
     */
    public static List<Instant> after(QueueLimits limits, List<Instant> starts, Instant now, int started) {
        if (limits.rateLimit() == null) {
            return List.of();
        }
        List<Instant> out = new ArrayList<>(recent(limits, starts, now));
        for (int i = 0; i < started; i++) {
            out.add(now);
        }
        return out.size() <= limits.rateLimit() ? out : out.subList(out.size() - limits.rateLimit(), out.size());
    }

    private static List<Instant> recent(QueueLimits limits, List<Instant> starts, Instant now) {
        Instant since = now.minus(limits.ratePeriod());
        return starts.stream().filter(s -> s.isAfter(since)).sorted().toList();
    }
}
