package dev.steadfast.stats;

import dev.steadfast.store.maintenance.StatsStore;
import java.time.Instant;
import java.util.List;

/**
 * The server at a glance, as of {@code at}: every queue's depth (counted at {@code countedAt}, at most a few
 * seconds earlier), and finished jobs per minute for the last {@code minutes.size()} minutes, oldest first, one
 * entry per minute (zeros included).
 */
public record Overview(Instant at, Instant countedAt, List<QueueStats> queues, List<StatsStore.Minute> minutes) {

    public long deadLetters() {
        return queues.stream().mapToLong(QueueStats::deadLetters).sum();
    }

    public long completedInWindow() {
        return minutes.stream().mapToLong(StatsStore.Minute::completed).sum();
    }

    public long failedInWindow() {
        return minutes.stream().mapToLong(StatsStore.Minute::failed).sum();
    }

    /** Failed for good / all finished in the window, 0..1; 0 when nothing finished. */
    public double failureRate() {
        long done = completedInWindow() + failedInWindow();
        return done == 0 ? 0 : (double) failedInWindow() / done;
    }
}
