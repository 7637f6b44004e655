package dev.steadfast.scheduler;

import dev.steadfast.config.SteadfastConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Triggers the sub-second maintenance tasks, {@link LeaseReaper} every steadfast.maintenance.lease-reaper-interval
 * and {@link RetryPromoter} every steadfast.maintenance.promoter-interval, on Vert.x timers (the Quarkus
 * scheduler's {@code every} has a one-second floor; a lease that ran out should not wait that long). The
 * {@link Pruner}, which runs every minute, uses the Quarkus scheduler. Timers stop at shutdown, so a dev-mode
 * reload does not leave the old ones running.
 */
@ApplicationScoped
public class MaintenanceTimers {

    private final List<Periodic> running = new ArrayList<>();

    void start(@Observes StartupEvent e, Vertx vertx, SteadfastConfig config, Clock clock, LeaseReaper reaper,
               RetryPromoter promoter) {
        running.add(Periodic.every(vertx, config.maintenance().leaseReaperInterval(), "LeaseReaper",
                () -> reaper.runOnce(now(clock))));
        running.add(Periodic.every(vertx, config.maintenance().promoterInterval(), "RetryPromoter",
                () -> promoter.runOnce(now(clock))));
    }

    void stop(@Observes ShutdownEvent e) {
        running.forEach(Periodic::cancel);
        running.clear();
    }

    private static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
