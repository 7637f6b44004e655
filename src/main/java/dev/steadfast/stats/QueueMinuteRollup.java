package dev.steadfast.stats;

import dev.steadfast.store.maintenance.StatsStore;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.jboss.logging.Logger;

/**
 * Rolls finished jobs up into per-queue, per-minute rows (queue_minutes) for the queues page's throughput and
 * latency sparklines, so a page reads at most an hour of small rows however many jobs finished. Every
 * {@value #EVERY}, on every instance: an advisory lock lets one instance roll up at a time (the others skip that
 * run), and each run covers at most {@link #STEP} from where the last one stopped, up to the last settled minute
 * (a minute is rolled up {@link FinishedMinutes#SETTLE} minutes after it ends, as the overview's chart settles its
 * minutes); it loops until it reaches it. Minutes older than {@link StatsService#WINDOW_MINUTES} are dropped.
 * Limits: a job finishing in a minute already rolled up (an instance whose clock is more than the settle time
 * behind) is not counted; the sparklines end at the last rolled-up minute, two to three minutes ago. A failed
 * run is logged once per run of failures and retried at the next tick.
 */
@ApplicationScoped
public class QueueMinuteRollup {

    static final String EVERY = "20s";
    static final Duration STEP = Duration.ofMinutes(15);

    private static final Logger LOG = Logger.getLogger(QueueMinuteRollup.class);

    private final StatsStore stats;
    private final Clock clock;
    private volatile boolean failing;

    public QueueMinuteRollup(StatsStore stats, Clock clock) {
        this.stats = stats;
        this.clock = clock;
    }

    @Scheduled(identity = "queue-minute-rollup", every = EVERY, delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return runOnce(clock.instant()).invoke(n -> {
            if (failing) {
                LOG.info("queue minute roll-up resumed");
            }
            failing = false;
        }).onFailure().recoverWithItem(e -> {
            if (!failing) {
                LOG.warnf("queue minute roll-up failed: %s", e.getMessage());
            }
            failing = true;
            return 0L;
        }).replaceWithVoid();
    }

    /** Rolls up every settled minute of the window at {@code now}; answers how many minutes it covered. */
    public Uni<Long> runOnce(Instant now) {
        Instant minute = now.truncatedTo(ChronoUnit.MINUTES);
        Instant until = minute.minus(Duration.ofMinutes(FinishedMinutes.SETTLE - 1));
        Instant floor = minute.minus(Duration.ofMinutes(StatsService.WINDOW_MINUTES));
        return step(floor, until, 0);
    }

    private Uni<Long> step(Instant floor, Instant until, long done) {
        return stats.rollUpQueueMinutes(floor, until, STEP).flatMap(n -> n >= STEP.toMinutes()
                ? step(floor, until, done + n) : Uni.createFrom().item(done + n));
    }
}
