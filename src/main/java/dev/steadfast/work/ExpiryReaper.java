package dev.steadfast.work;

import dev.steadfast.maintenance.MaintenanceHealth;
import dev.steadfast.maintenance.MaintenanceRuns;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * Discards jobs whose expires_at passed before they were started ({@link ExpiredJobs}), so their state is true
 * even in a queue no worker fetches from. Bounded batches, SKIP LOCKED: safe on every instance at once. Runs
 * every steadfast.maintenance.expiry-interval (default 1 s) on the Quarkus scheduler, through
 * {@link MaintenanceRuns}.
 */
@ApplicationScoped
public class ExpiryReaper {

    private final ExpiredJobs expired;
    private final MaintenanceRuns runs;

    public ExpiryReaper(ExpiredJobs expired, MaintenanceRuns runs) {
        this.expired = expired;
        this.runs = runs;
    }

    @Scheduled(identity = MaintenanceHealth.EXPIRY_REAPER, every = "${steadfast.maintenance.expiry-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return runs.run(MaintenanceHealth.EXPIRY_REAPER, this::runOnce);
    }

    /** Discards every job expired at {@code now}; returns how many. */
    public Uni<Integer> runOnce(Instant now) {
        return expired.discard(now);
    }
}
