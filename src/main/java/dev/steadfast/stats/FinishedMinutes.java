package dev.steadfast.stats;

import dev.steadfast.store.maintenance.StatsStore.Minute;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The overview chart's finished jobs per minute, counted once per minute: a minute more than {@link #SETTLE} minutes
 * old is remembered, so each overview counts only the minutes since the last one it remembers (at most
 * {@code SETTLE + 1} on a busy console) instead of the whole hour (355,000 history rows in one hour of the
 * benchmarks: 460 ms per overview). A job that finished in a remembered minute and is later retried or deleted
 * still finished then, so the chart keeps it. Instances whose clocks differ by less than the settle time record their
 * finishes in minutes this one has not remembered yet. Pure: minutes are epoch minutes passed in by the caller.
 * Thread-safe.
 */
final class FinishedMinutes {

    /** Minutes younger than this may still receive finishes (another instance's clock, a commit in flight). */
    static final long SETTLE = 2;

    private final TreeMap<Long, Minute> remembered = new TreeMap<>();
    /** The last minute remembered (all minutes up to it are, zeros included); Long.MIN_VALUE before the first count. */
    private long through = Long.MIN_VALUE;

    synchronized void forget() {
        remembered.clear();
        through = Long.MIN_VALUE;
    }

    /**
     * The first minute the caller must count from the database for a window starting at {@code since} at {@code now}
     * (epoch minutes). Minutes remembered past what is settled at {@code now} mean the clock moved back (a test's
     * clock, a corrected system clock): they are forgotten and the window counted whole, never shown as empty.
     */
    synchronized long countFrom(long since, long now) {
        if (through > now - SETTLE) {
            forget();
        }
        return through == Long.MIN_VALUE || through < since ? since : through + 1;
    }

    /**
     * Takes the minutes counted from {@code from} at {@code now} (epoch minutes), remembers the settled ones and
     * answers the window {@code since..now}, one entry per minute with a finish.
     */
    synchronized List<Minute> window(long since, long now, long from, List<Minute> counted) {
        long settled = now - SETTLE;
        if (from <= settled) {
            for (Minute m : counted) {
                if (m.epochMinute() <= settled && m.epochMinute() >= from) {
                    remembered.put(m.epochMinute(), m);
                }
            }
            through = Math.max(through, settled);
        }
        remembered.headMap(since).clear();
        Map<Long, Minute> out = new TreeMap<>(remembered);
        for (Minute m : counted) {
            if (m.epochMinute() > settled || m.epochMinute() < from) {
                out.putIfAbsent(m.epochMinute(), m);
            }
        }
        out.keySet().removeIf(k -> k < since || k > now);
        return new ArrayList<>(out.values());
    }
}
