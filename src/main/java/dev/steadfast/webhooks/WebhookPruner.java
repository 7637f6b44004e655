package dev.steadfast.webhooks;

import dev.steadfast.maintenance.Batches;
import dev.steadfast.maintenance.MaintenanceConfig;
import dev.steadfast.store.webhooks.WebhookStore;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Retention of deliveries: delivered and dead deliveries older than steadfast.webhooks.retention are deleted, every
 * steadfast.maintenance.pruner-interval, in batches of steadfast.maintenance.batch-size until one comes back short.
 * Each batch is chosen {@code FOR UPDATE SKIP LOCKED}, so every instance may run it at once. Pending deliveries are
 * never pruned: they end delivered or dead first.
 */
@ApplicationScoped
class WebhookPruner {

    private static final Logger LOG = Logger.getLogger(WebhookPruner.class);

    private final WebhookStore store;
    private final WebhooksConfig config;
    private final MaintenanceConfig maintenance;
    private final Clock clock;

    public WebhookPruner(WebhookStore store, WebhooksConfig config, MaintenanceConfig maintenance, Clock clock) {
        this.store = store;
        this.config = config;
        this.maintenance = maintenance;
        this.clock = clock;
    }

    @Scheduled(identity = "webhook-pruner", every = "${steadfast.maintenance.pruner-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return runOnce(clock.instant()).replaceWithVoid().onFailure().recoverWithItem(e -> {
            LOG.warnf("webhook delivery pruning failed: %s", e.getMessage());
            return null;
        });
    }

    /** Deletes what finished before {@code now} minus the retention; how many. */
    public Uni<Integer> runOnce(Instant now) {
        Instant cutoff = now.minus(config.retention());
        int batch = maintenance.batchSize();
        return Batches.untilShort(() -> store.pruneFinished(cutoff, batch), batch);
    }
}
