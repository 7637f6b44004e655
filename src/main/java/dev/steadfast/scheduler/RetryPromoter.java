package dev.steadfast.scheduler;

import dev.steadfast.config.SteadfastConfig;
import dev.steadfast.service.Telemetry;
import dev.steadfast.store.MaintenanceStore;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * Retry and schedule promotion: scheduled and retryable jobs whose time has come become available, so INFO and
 * the console show the state a worker would see. Fetch already claims due jobs directly (RET-11 holds either
 * way: nothing is claimable before its run_at); this task only keeps the visible state true. Set-based and
 * guarded by state with SKIP LOCKED, so several instances running it at once is harmless. Runs every
 * steadfast.maintenance.promoter-interval (default 1 s) on the Quarkus scheduler, through {@link MaintenanceRuns}.
 */
@ApplicationScoped
public class RetryPromoter {

    private final MaintenanceStore store;
    private final Telemetry telemetry;
    private final SteadfastConfig config;
    private final MaintenanceRuns runs;

    public RetryPromoter(MaintenanceStore store, Telemetry telemetry, SteadfastConfig config, MaintenanceRuns runs) {
        this.runs = runs;
        this.store = store;
        this.telemetry = telemetry;
        this.config = config;
    }

    @Scheduled(identity = MaintenanceHealth.RETRY_PROMOTER, every = "${steadfast.maintenance.promoter-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return runs.run(MaintenanceHealth.RETRY_PROMOTER, this::runOnce);
    }

    /** Promotes every job due at {@code now}; returns how many. */
    public Uni<Integer> runOnce(Instant now) {
        int batch = config.maintenance().batchSize();
        return store.promoteDue(now, batch).flatMap(promoted -> {
            promoted.forEach(p -> telemetry.promoted(p.id(), p.type(), p.queue(), p.priority(), now));
            return promoted.size() < batch ? Uni.createFrom().item(promoted.size())
                    : runOnce(now).map(n -> n + promoted.size());
        });
    }
}
