package dev.steadfast.stats;

import dev.steadfast.store.maintenance.StatsStore.QueueMinute;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The queues page's finished jobs per queue and minute, counted once per minute as {@link FinishedMinutes} does
 * for the overview: a minute more than {@link FinishedMinutes#SETTLE} minutes old is remembered, so each view
 * counts only the minutes since the last one remembered instead of the whole hour. Pure: minutes are epoch
 * minutes passed in by the caller. Thread-safe.
 */
final class QueueMinutes {

    private final TreeMap<Long, List<QueueMinute>> remembered = new TreeMap<>();
    private long through = Long.MIN_VALUE;

    synchronized void forget() {
        remembered.clear();
        through = Long.MIN_VALUE;
    }

    /** The first minute the caller must count from the database for a window starting at {@code since}. */
    synchronized long countFrom(long since) {
        return through == Long.MIN_VALUE || through < since ? since : through + 1;
    }

    /**
     * Takes the rows counted from {@code from} at {@code now} (epoch minutes), remembers the settled minutes and
     * answers every row of the window {@code since..now}.
     */
    synchronized List<QueueMinute> window(long since, long now, long from, List<QueueMinute> counted) {
        long settled = now - FinishedMinutes.SETTLE;
        if (from <= settled) {
            for (long m = from; m <= settled; m++) {
                remembered.put(m, new ArrayList<>());
            }
            for (QueueMinute q : counted) {
                if (q.epochMinute() >= from && q.epochMinute() <= settled) {
                    remembered.get(q.epochMinute()).add(q);
                }
            }
            through = Math.max(through, settled);
        }
        remembered.headMap(since).clear();
        List<QueueMinute> out = new ArrayList<>();
        remembered.tailMap(since, true).headMap(now, true).values().forEach(out::addAll);
        for (QueueMinute q : counted) {
            if ((q.epochMinute() > settled || q.epochMinute() < from) && q.epochMinute() >= since
                    && q.epochMinute() <= now && !remembered.containsKey(q.epochMinute())) {
                out.add(q);
            }
        }
        return out;
    }
}
