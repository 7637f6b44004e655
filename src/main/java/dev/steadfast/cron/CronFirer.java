package dev.steadfast.cron;

import dev.steadfast.maintenance.MaintenanceHealth;
import dev.steadfast.maintenance.MaintenanceRuns;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * Fires due cron occurrences ({@link CronService#fireDue}). It does not rely on the scheduler's timing for
 * correctness: each tick acts on every schedule whose stored next fire time has passed, so a late or skipped tick
 * only delays an occurrence, and every instance may tick at once, since an occurrence is enqueued only by the
 * transaction that records it first (cron_runs' primary key) and schedules are locked with SKIP LOCKED. Each tick
 * also lets the next held run of an {@code enqueue} schedule start once the run before it has finished. Runs every
 * steadfast.cron.tick-interval (default 1 s, the Quarkus scheduler's resolution and ojs-cron.md 7.3's limit)
 * through {@link MaintenanceRuns}.
 */
@ApplicationScoped
class CronFirer {

    private final CronService crons;
    private final MaintenanceRuns runs;

    public CronFirer(CronService crons, MaintenanceRuns runs) {
        this.crons = crons;
        this.runs = runs;
    }

    @Scheduled(identity = MaintenanceHealth.CRON_FIRER, every = "${steadfast.cron.tick-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return runs.run(MaintenanceHealth.CRON_FIRER, this::runOnce);
    }

    /**
     * Fires every occurrence due at {@code now}, then releases held occurrences whose turn has come (enqueue
     * overlap policy, {@link CronService#releaseHeld}); returns how many occurrences were fired.
     */
    public Uni<Integer> runOnce(Instant now) {
        return crons.fireDue(now).flatMap(fired -> crons.releaseHeld(now).replaceWith(fired));
    }
}
