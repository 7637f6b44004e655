package dev.steadfast.work;

import dev.steadfast.domain.SweepFloor;
import dev.steadfast.events.Telemetry;
import dev.steadfast.events.WorkSignal;
import dev.steadfast.maintenance.MaintenanceConfig;
import dev.steadfast.maintenance.MaintenanceHealth;
import dev.steadfast.maintenance.MaintenanceRuns;
import dev.steadfast.store.maintenance.MaintenanceStore;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Retry and schedule promotion: scheduled and retryable jobs whose time has come become available, so INFO and
 * the console show the state a worker would see. Fetch already claims due jobs directly (RET-11 holds either
 * way: nothing is claimable before its run_at); this task only keeps the visible state true. Set-based and
 * guarded by state with SKIP LOCKED, so several instances running it at once is harmless. Runs every
 * steadfast.maintenance.promoter-interval (default 1 s) on the Quarkus scheduler, through {@link MaintenanceRuns}, and
 * at the due time of every scheduled job and retry this instance set within the next 30 s (WorkSignal's due-time
 * timers), so such a job shows available within milliseconds of its time rather than up to a tick later.
 */
@ApplicationScoped
public class RetryPromoter {

    private final MaintenanceStore store;
    private final Telemetry telemetry;
    private final MaintenanceConfig config;
    private final MaintenanceRuns runs;

    private final Clock clock;
    /** Where this instance's next run starts reading the due index. */
    private final SweepFloor floor;
    /** 0 idle, 1 running, 2 running and asked again meanwhile. */
    private final AtomicInteger onDue = new AtomicInteger();

    public RetryPromoter(MaintenanceStore store, Telemetry telemetry, MaintenanceConfig config, MaintenanceRuns runs,
                         WorkSignal signal, Clock clock, FetchConfig fetch) {
        this.floor = new SweepFloor(fetch.scanLookback(), fetch.fullScanInterval(), fetch.fullScanCostShare());
        this.runs = runs;
        this.store = store;
        this.telemetry = telemetry;
        this.config = config;
        this.clock = clock;
        signal.onDue(this::promoteOnDue);
    }

    /**
     * A job this instance scheduled (or a retry it decided) came due: promote at once instead of at the next tick,
     * so INFO shows it available at its time. One run at a time; a request arriving during a run causes one more
     * run after it, so none is lost. Failures are left to the tick, which reports them.
     */
    private void promoteOnDue() {
        if (onDue.getAndUpdate(s -> Math.min(2, s + 1)) > 0) {
            return;
        }
        runOnce(clock.instant().truncatedTo(ChronoUnit.MICROS)).subscribe().with(
                n -> afterOnDue(), e -> afterOnDue());
    }

    private void afterOnDue() {
        if (onDue.getAndUpdate(s -> s - 1) == 2) {
            onDue.set(0);
            promoteOnDue();
        }
    }

    @Scheduled(identity = MaintenanceHealth.RETRY_PROMOTER, every = "${steadfast.maintenance.promoter-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return runs.run(MaintenanceHealth.RETRY_PROMOTER, this::runOnce);
    }

    /**
     * Forgets where the last runs ended ({@link SweepFloor#forget}): the next run reads from the head. For a reset,
     * which empties the tables the floor describes.
     */
    public void forget() {
        floor.forget();
    }

    /**
     * Promotes every job due at {@code now}, reading the due index from where the last finished run of this
     * instance ended (domain.SweepFloor: every retry and schedule is written due after its writer's now); returns
     * how many.
     */
    public Uni<Integer> runOnce(Instant now) {
        return Uni.createFrom().deferred(() -> {
            Instant after = floor.from(now);
            long started = System.nanoTime();
            return promote(now, after)
                    .invoke(n -> floor.swept(now, after == null, Duration.ofNanos(System.nanoTime() - started)));
        });
    }

    private Uni<Integer> promote(Instant now, Instant after) {
        int batch = config.batchSize();
        return store.promoteDue(now, after, batch).flatMap(promoted -> {
            promoted.forEach(p -> telemetry.promoted(p.id(), p.type(), p.queue(), p.priority(), now));
            return promoted.size() < batch ? Uni.createFrom().item(promoted.size())
                    : promote(now, after).map(n -> n + promoted.size());
        });
    }
}
