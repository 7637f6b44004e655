package dev.steadfast.maintenance;

import dev.steadfast.http.Timestamps;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/**
 * Each maintenance task's last successful run, behind the readiness check ({@link MaintenanceReadiness},
 * {@code /q/health/ready}, check {@code maintenance}): DOWN when a task has not succeeded for steadfast.maintenance.stale-after-intervals of its
 * intervals (counted from start-up until its first success), with each task's last success and age as data. A
 * task failing every run (say, PostgreSQL unreachable) thus shows here within a few intervals, and in the log as
 * one line per failed run. Refuses to start with an interval under one second, the Quarkus scheduler's resolution.
 */
@ApplicationScoped
@Startup
public class MaintenanceHealth {

    public static final String LEASE_REAPER = "lease-reaper";
    public static final String RETRY_PROMOTER = "retry-promoter";
    public static final String PRUNER = "pruner";
    public static final String EXPIRY_REAPER = "expiry-reaper";
    public static final String CRON_FIRER = "cron-firer";
    public static final String WORKFLOW_ADVANCER = "workflow-advancer";
    static final List<String> TASKS = List.of(LEASE_REAPER, RETRY_PROMOTER, PRUNER, EXPIRY_REAPER, CRON_FIRER,
            WORKFLOW_ADVANCER);

    private final Clock clock;
    private final Instant started;
    private final Map<String, Duration> staleAfter = new LinkedHashMap<>();
    private final Map<String, Instant> lastSuccess = new ConcurrentHashMap<>();

    public MaintenanceHealth(Clock clock, MaintenanceConfig m, CronTickConfig cron) {
        this.clock = clock;
        this.started = clock.instant();
        Map<String, Duration> intervals = Map.of("steadfast.maintenance.lease-reaper-interval",
                m.leaseReaperInterval(), "steadfast.maintenance.promoter-interval", m.promoterInterval(),
                "steadfast.maintenance.pruner-interval", m.prunerInterval(), "steadfast.maintenance.expiry-interval",
                m.expiryInterval(), "steadfast.cron.tick-interval", cron.tickInterval(),
                "steadfast.maintenance.workflow-interval", m.workflowInterval());
        intervals.forEach((name, d) -> {
            if (d.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException(name + " must be at least 1s (the Quarkus scheduler's resolution),"
                        + " got " + d);
            }
        });
        int n = Math.max(1, m.staleAfterIntervals());
        staleAfter.put(LEASE_REAPER, m.leaseReaperInterval().multipliedBy(n));
        staleAfter.put(RETRY_PROMOTER, m.promoterInterval().multipliedBy(n));
        staleAfter.put(EXPIRY_REAPER, m.expiryInterval().multipliedBy(n));
        staleAfter.put(WORKFLOW_ADVANCER, m.workflowInterval().multipliedBy(n));
        staleAfter.put(CRON_FIRER, cron.tickInterval().multipliedBy(n));
        staleAfter.put(PRUNER, m.prunerInterval().multipliedBy(n)
                .plus(Duration.parse("PT" + Pruner.FIRST_RUN_DELAY.toUpperCase(Locale.ROOT))));
    }

    void succeeded(String task, Instant at) {
        lastSuccess.put(task, at);
    }

    public Optional<Instant> lastSuccess(String task) {
        return Optional.ofNullable(lastSuccess.get(task));
    }

    /** The readiness check as of now (the clock's). */
    HealthCheckResponse check() {
        return check(clock.instant());
    }

    /** The check as of {@code now} (tests look into the future with it). */
    HealthCheckResponse check(Instant now) {
        HealthCheckResponseBuilder b = HealthCheckResponse.named("maintenance").up();
        for (String task : TASKS) {
            Instant last = lastSuccess.get(task);
            Duration age = Duration.between(last == null ? started : last, now);
            boolean stale = age.compareTo(staleAfter.get(task)) > 0;
            b.withData(task, (last == null ? "no successful run yet" : "last success " + Timestamps.format(last))
                    + (stale ? ", STALE (limit " + staleAfter.get(task) + ")" : ""));
            if (stale) {
                b.down();
            }
        }
        return b.build();
    }
}
