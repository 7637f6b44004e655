package dev.steadfast.stats;

import dev.steadfast.domain.JobState;
import dev.steadfast.model.QueueRow;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.maintenance.StatsStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Assembles the {@link Overview} for the console and the admin queue list. Its queries run concurrently (each on
 * its own pooled connection), so the answer takes as long as the slowest of them; the depth counts come from
 * {@link DepthCounts}, which shares one count among requests for a few seconds. Throughput counts jobs by how
 * they finished (completed, or failed for good), from the jobs table itself: the same on every instance and
 * across restarts. Failed attempts that were retried show as retryable jobs and in each job's error history.
 */
@ApplicationScoped
public class StatsService {

    /** The throughput window: one bar per minute. */
    public static final int WINDOW_MINUTES = 60;

    private final StatsStore stats;
    private final DepthCounts counts;
    private final JobStore jobs;
    private final Clock clock;
    private final FinishedMinutes finished = new FinishedMinutes();

    public StatsService(StatsStore stats, DepthCounts counts, JobStore jobs, Clock clock) {
        this.stats = stats;
        this.counts = counts;
        this.jobs = jobs;
        this.clock = clock;
    }

    public Uni<Overview> overview() {
        Instant now = clock.instant();
        long nowMinute = now.getEpochSecond() / 60;
        long sinceMinute = nowMinute - WINDOW_MINUTES + 1;
        long from = finished.countFrom(sinceMinute, nowMinute);
        return Uni.combine().all().unis(jobs.queues(), counts.get(), stats.oldestAvailable(),
                        stats.finishedPerMinute(Instant.ofEpochSecond(from * 60))).asTuple()
                .map(t -> new Overview(now, t.getItem2().at(), queues(t.getItem1(), t.getItem2(), t.getItem3()),
                        minutes(finished.window(sinceMinute, nowMinute, from, t.getItem4()), nowMinute)));
    }

    /** Forgets the remembered chart minutes (after the tables were emptied). */
    public void forget() {
        finished.forget();
    }

    /**
     * Every queue's last hour ({@link QueueActivity}, by name) up to the last rolled-up minute: the window's minutes
     * run up to {@code through} (exclusive; null before the first roll-up, then the window ends now).
     */
    public record Activity(Map<String, QueueActivity> byQueue, Instant through) {
    }

    /**
     * Every queue's finished jobs and mean wait per minute over the last {@link #WINDOW_MINUTES} minutes, from the
     * rolled-up minutes ({@link QueueMinuteRollup}); a queue without a finish in the window is absent.
     */
    public Uni<Activity> queueActivity() {
        Instant now = clock.instant();
        long nowMinute = now.getEpochSecond() / 60;
        return stats.queueMinutes(Instant.ofEpochSecond((nowMinute - WINDOW_MINUTES - FinishedMinutes.SETTLE) * 60))
                .map(m -> {
                    long end = m.through() == null ? nowMinute : m.through().getEpochSecond() / 60 - 1;
                    return new Activity(activity(m.rows(), end - WINDOW_MINUTES + 1), m.through());
                });
    }

    static Map<String, QueueActivity> activity(List<StatsStore.QueueMinute> rows, long sinceMinute) {
        Map<String, long[][]> acc = new TreeMap<>();
        for (StatsStore.QueueMinute r : rows) {
            int i = (int) (r.epochMinute() - sinceMinute);
            if (i < 0 || i >= WINDOW_MINUTES) {
                continue;
            }
            long[][] a = acc.computeIfAbsent(r.queue(), q -> new long[3][WINDOW_MINUTES]);
            a[0][i] += r.finished();
            a[1][i] += r.waited();
            a[2][i] += r.waitMs();
        }
        Map<String, QueueActivity> out = new TreeMap<>();
        acc.forEach((q, a) -> {
            List<Long> finished = new ArrayList<>(WINDOW_MINUTES);
            List<Long> wait = new ArrayList<>(WINDOW_MINUTES);
            for (int i = 0; i < WINDOW_MINUTES; i++) {
                finished.add(a[0][i]);
                wait.add(a[1][i] == 0 ? 0 : a[2][i] / a[1][i]);
            }
            out.put(q, new QueueActivity(q, finished, wait));
        });
        return out;
    }

    /** The admin API's metrics summary as of now (the depth counts may be up to counts-max-age old). */
    public Uni<MetricsSummary> summary() {
        Instant now = clock.instant();
        Instant hourAgo = now.minus(Duration.ofHours(1));
        Instant dayAgo = now.minus(Duration.ofDays(1));
        return Uni.combine().all().unis(counts.get(), stats.deadLetterGrowth(hourAgo, dayAgo),
                        stats.finishedSince(hourAgo, dayAgo)).asTuple()
                .map(t -> new MetricsSummary(now, t.getItem1(), t.getItem2(), t.getItem3()));
    }

    /** Jobs by state (every state, zero included) and dead letters, in one queue or (null) in all, counted now. */
    public Uni<StateCounts> countByState(String queue) {
        if (queue == null) {
            return Uni.combine().all().unis(stats.countsByQueue(), stats.deadLettersByQueue()).asTuple()
                    .map(t -> {
                        Map<JobState, Long> sum = new EnumMap<>(JobState.class);
                        t.getItem1().values().forEach(m -> m.forEach((s, n) -> sum.merge(s, n, Long::sum)));
                        return StateCounts.of(null, sum, t.getItem2().values().stream().mapToLong(Long::longValue).sum());
                    });
        }
        return Uni.combine().all().unis(stats.countsInQueue(queue), stats.deadLettersInQueue(queue)).asTuple()
                .map(t -> StateCounts.of(queue, t.getItem1(), t.getItem2()));
    }

    /** Depth of every queue: the known queues, plus any queue that has jobs but no row, by name. */
    public Uni<List<QueueStats>> queues() {
        return Uni.combine().all().unis(jobs.queues(), counts.get(), stats.oldestAvailable()).asTuple()
                .map(t -> queues(t.getItem1(), t.getItem2(), t.getItem3()));
    }

    static List<QueueStats> queues(List<QueueRow> rows, DepthCounts.Snapshot snapshot, Map<String, Instant> oldest) {
        Map<String, Map<JobState, Long>> counts = snapshot.byQueue();
        Map<String, Long> dead = snapshot.deadLetters();
        Map<String, QueueRow> byName = new TreeMap<>();
        rows.forEach(r -> byName.put(r.name(), r));
        counts.keySet().forEach(q -> byName.putIfAbsent(q, new QueueRow(q, false, null, null)));
        List<QueueStats> out = new ArrayList<>(byName.size());
        for (QueueRow q : byName.values()) {
            out.add(new QueueStats(q.name(), q.paused(), q.pausedAt(), q.createdAt(),
                    counts.getOrDefault(q.name(), Map.of()), dead.getOrDefault(q.name(), 0L), oldest.get(q.name())));
        }
        return out;
    }

    static List<StatsStore.Minute> minutes(List<StatsStore.Minute> found, long nowMinute) {
        Map<Long, StatsStore.Minute> byMinute = new HashMap<>();
        found.forEach(m -> byMinute.put(m.epochMinute(), m));
        List<StatsStore.Minute> out = new ArrayList<>(WINDOW_MINUTES);
        for (long m = nowMinute - WINDOW_MINUTES + 1; m <= nowMinute; m++) {
            out.add(byMinute.getOrDefault(m, new StatsStore.Minute(m, 0, 0)));
        }
        return out;
    }

    /** How long the oldest available job of {@code q} has waited, as of {@code now}; null when none waits. */
    public static Duration lag(QueueStats q, Instant now) {
        return q.oldestAvailableAt() == null ? null : Duration.between(q.oldestAvailableAt(), now).isNegative()
                ? Duration.ZERO : Duration.between(q.oldestAvailableAt(), now);
    }
}
