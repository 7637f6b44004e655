package dev.steadfast.maintenance;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduler;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Runs one maintenance task for its {@code @Scheduled} trigger: reads the clock once, bounds the run by
 * steadfast.maintenance.run-timeout, records a success in {@link MaintenanceHealth} (the readiness check and the
 * gauge {@code steadfast_maintenance_last_success_seconds{task}}, the Unix time of the task's last success), and
 * turns a failure or a timeout into one warning line ({@link OutageLog}: once per database outage, then one line
 * when it is over). The returned Uni never fails, so a bad run is reported and
 * the next tick runs as usual; the scheduler's {@code SKIP} keeps runs of one task from overlapping within this
 * instance (the SQL itself is safe across instances).
 *
 * <p>A timed-out run is abandoned, not cancelled: a statement already sent finishes in PostgreSQL, and the next
 * run skips rows it still holds (SKIP LOCKED).
 */
@ApplicationScoped
public class MaintenanceRuns {

    private static final Logger LOG = Logger.getLogger(MaintenanceRuns.class);

    private final Clock clock;
    private final Duration timeout;
    private final MaintenanceHealth health;

    public MaintenanceRuns(Clock clock, MaintenanceConfig config, MaintenanceHealth health, MeterRegistry meters) {
        this.clock = clock;
        this.timeout = config.runTimeout();
        this.health = health;
        for (String task : MaintenanceHealth.TASKS) {
            Gauge.builder("steadfast.maintenance.last.success.seconds", health,
                            h -> h.lastSuccess(task).map(i -> i.toEpochMilli() / 1000.0).orElse(Double.NaN))
                    .description("Unix time of the maintenance task's last successful run")
                    .tag("task", task).register(meters);
        }
    }

    private volatile boolean stopping;

    /**
     * Once the application stops, no new run starts: the pool is about to close under it. The scheduler is paused
     * too: a trigger that fired while the container was being torn down made Quarkus's invoker fail before any task
     * ran (an ERROR line per scheduled task, "Error Occurred After Shutdown": in 4 of about 70 SIGTERMs after
     * benchmark runs, 2026-11-30).
     */
    void onStop(@Observes ShutdownEvent e, Scheduler scheduler) {
        stopping = true;
        scheduler.pause();
    }

    /** One run of {@code task} at the current time, bounded by the configured timeout. */
    public Uni<Void> run(String task, Function<Instant, Uni<Integer>> runOnce) {
        return run(task, timeout, runOnce);
    }

    Uni<Void> run(String task, Duration limit, Function<Instant, Uni<Integer>> runOnce) {
        if (stopping) {
            return Uni.createFrom().voidItem();
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        return Uni.createFrom().deferred(() -> runOnce.apply(now))
                .ifNoItem().after(limit).failWith(() -> new MaintenanceTimeout(task, limit))
                .invoke(n -> {
                    health.succeeded(task, clock.instant());
                    outages(task).succeeded();
                    if (n > 0) {
                        LOG.debugf("%s handled %d jobs", task, n);
                    }
                })
                .onFailure().invoke(e -> outages(task).failed(e))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    private final ConcurrentHashMap<String, OutageLog> outages =
            new ConcurrentHashMap<>();

    /** The task's failure log: one line per database outage, not one per run (OutageLog). */
    private OutageLog outages(String task) {
        return outages.computeIfAbsent(task, t -> new OutageLog(MaintenanceRuns.class, "maintenance task " + t));
    }

    /** A run that produced no result within the limit. */
    static final class MaintenanceTimeout extends RuntimeException {
        MaintenanceTimeout(String task, Duration limit) {
            super("no result within " + limit + " (the run was abandoned; the next one starts on schedule)", null,
                    false, false);
        }
    }
}
