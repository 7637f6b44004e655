package dev.steadfast.operations;

import dev.steadfast.domain.ClaimCursors;
import dev.steadfast.events.EventLog;
import dev.steadfast.queues.Backpressure;
import dev.steadfast.queues.QueueLimiter;
import dev.steadfast.queues.QueueRegistry;
import dev.steadfast.schemas.ArgsValidation;
import dev.steadfast.stats.StatsService;
import dev.steadfast.store.JobStore;
import dev.steadfast.tenants.TenantService;
import dev.steadfast.webhooks.WebhookFanout;
import dev.steadfast.work.LeaseExpiry;
import dev.steadfast.work.RetryPromoter;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/** Health, the queue list and the reset hook. */
@ApplicationScoped
public class SystemService {

    private final JobStore store;
    private final QueueRegistry queues;
    private final EventLog events;
    private final long startedNanos = System.nanoTime();
    private final QueueLimiter limiter;
    private final Backpressure backpressure;
    private final ArgsValidation argsValidation;

    private final StatsService stats;

    private final TenantService tenants;

    private final ClaimCursors cursors;

    private final LeaseExpiry leases;

    private final RetryPromoter promoter;

    private final WebhookFanout webhooks;

    public SystemService(JobStore store, QueueRegistry queues, EventLog events, QueueLimiter limiter,
                         Backpressure backpressure, StatsService stats, ArgsValidation argsValidation,
                         TenantService tenants, ClaimCursors cursors, LeaseExpiry leases,
                         RetryPromoter promoter, WebhookFanout webhooks) {
        this.webhooks = webhooks;
        this.cursors = cursors;
        this.leases = leases;
        this.promoter = promoter;
        this.tenants = tenants;
        this.stats = stats;
        this.argsValidation = argsValidation;
        this.limiter = limiter;
        this.backpressure = backpressure;
        this.store = store;
        this.queues = queues;
        this.events = events;
    }

    /** The database round-trip time in milliseconds; fails when the database does not answer within 2 s. */
    public Uni<Long> ping() {
        long t0 = System.nanoTime();
        return store.ping().ifNoItem().after(Duration.ofSeconds(2)).fail()
                .map(v -> (System.nanoTime() - t0) / 1_000_000);
    }

    public long uptimeSeconds() {
        return (System.nanoTime() - startedNanos) / 1_000_000_000L;
    }

    /** Empties every table and this instance's caches. */
    public Uni<Void> reset() {
        return store.reset().invoke(() -> {
            queues.forget();
            limiter.forget();
            tenants.forget();
            argsValidation.forget();
            backpressure.forget();
            events.clear();
            webhooks.forget();
            stats.forget();
            cursors.forget();
            leases.forget();
            promoter.forget();
        });
    }
}
