package dev.steadfast.work;

import dev.steadfast.maintenance.MaintenanceHealth;
import dev.steadfast.maintenance.MaintenanceRuns;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * The scheduled side of lease expiry ({@link LeaseExpiry} holds the rule): every
 * steadfast.maintenance.lease-reaper-interval (default 1 s) on the Quarkus scheduler, through
 * {@link MaintenanceRuns} (timeout, one-line failures, last success in readiness and metrics), on every instance.
 * FETCH also takes back expired leases itself (at most every steadfast.fetch.reap-interval), and a timer armed when a
 * lease is handed out reaps at its end ({@link LeaseExpiry#expiresAt}), so a job whose worker vanished never waits
 * for this tick; the tick is the backstop (leases extended by heartbeats, ends beyond the timer horizon, restarts).
 */
@ApplicationScoped
public class LeaseReaper {

    private final LeaseExpiry expiry;
    private final MaintenanceRuns runs;

    public LeaseReaper(LeaseExpiry expiry, MaintenanceRuns runs) {
        this.expiry = expiry;
        this.runs = runs;
    }

    @Scheduled(identity = MaintenanceHealth.LEASE_REAPER, every = "${steadfast.maintenance.lease-reaper-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return runs.run(MaintenanceHealth.LEASE_REAPER, this::runOnce);
    }

    /** Reaps every lease expired at {@code now}; returns how many jobs it handled. */
    public Uni<Integer> runOnce(Instant now) {
        return expiry.reap(now);
    }
}
