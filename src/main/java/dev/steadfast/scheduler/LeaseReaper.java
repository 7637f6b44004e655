package dev.steadfast.scheduler;

import dev.steadfast.config.SteadfastConfig;
import dev.steadfast.domain.FailureReport;
import dev.steadfast.domain.retry.Failure;
import dev.steadfast.service.AttemptOutcomes;
import dev.steadfast.service.Telemetry;
import dev.steadfast.store.Attempt;
import dev.steadfast.store.FailureWrite;
import dev.steadfast.store.JobRow;
import dev.steadfast.store.MaintenanceStore;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Lease expiry (RET-12, ojs-worker-protocol.md 5.5): an active job whose lease ran out without an ack, a fail
 * or a heartbeat is a failed attempt. It gets an error of type {@code visibility_timeout} (or {@code timeout}
 * when it ran past its execution deadline, timeout_ms) in its history and follows its retry policy: available
 * again, retryable after the backoff, or discarded / dead-lettered when attempts are exhausted. The backoff is
 * measured from the worker's last sign of life, so a crash already "waited out" part of it.
 *
 * <p>Runs every steadfast.maintenance.lease-reaper-interval (default 1 s) on the Quarkus scheduler, through
 * {@link MaintenanceRuns} (timeout, one-line failures, last success in readiness and metrics), on every
 * instance; jobs are locked with SKIP LOCKED,
 * so instances never decide the same job, and a late ack from the old worker finds the job no longer active
 * (or leased to someone else) and is refused.
 */
@ApplicationScoped
public class LeaseReaper {

    private final MaintenanceStore store;
    private final AttemptOutcomes outcomes;
    private final Telemetry telemetry;
    private final SteadfastConfig config;
    private final MaintenanceRuns runs;

    public LeaseReaper(MaintenanceStore store, AttemptOutcomes outcomes, Telemetry telemetry,
                       SteadfastConfig config, MaintenanceRuns runs) {
        this.runs = runs;
        this.store = store;
        this.outcomes = outcomes;
        this.telemetry = telemetry;
        this.config = config;
    }

    @Scheduled(identity = MaintenanceHealth.LEASE_REAPER, every = "${steadfast.maintenance.lease-reaper-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return runs.run(MaintenanceHealth.LEASE_REAPER, this::runOnce);
    }

    /** Reaps every lease expired at {@code now}, batch after batch; returns how many jobs it handled. */
    public Uni<Integer> runOnce(Instant now) {
        int batch = config.maintenance().batchSize();
        Map<UUID, FailureReport> reports = new HashMap<>();
        Map<UUID, String> owners = new HashMap<>();
        return store.reapExpiredLeases(now, batch, outcomes.historyKept(), row -> {
            FailureReport r = report(row, now);
            reports.put(row.id(), r);
            owners.put(row.id(), row.leaseOwner());
            return decide(row, r, now);
        }).flatMap(rows -> {
            for (JobRow r : rows) {
                telemetry.leaseExpired(r, owners.get(r.id()), now);
                telemetry.failed(r, reports.get(r.id()), now);
            }
            if (rows.size() < batch) {
                return Uni.createFrom().item(rows.size());
            }
            return runOnce(now).map(n -> n + rows.size());
        });
    }

    FailureWrite decide(JobRow row, FailureReport r, Instant now) {
        Instant lastSeen = row.leaseRenewedAt() != null ? row.leaseRenewedAt() : row.startedAt();
        return outcomes.failed(Attempt.of(row), r, Failure.leaseExpired(r.type()), null, null, null, now, lastSeen);
    }

    static FailureReport report(JobRow row, Instant now) {
        boolean overran = row.executionDeadline() != null && !row.executionDeadline().isAfter(now);
        String worker = row.leaseOwner() == null ? "an anonymous worker" : "worker '" + row.leaseOwner() + "'";
        if (overran) {
            return FailureReport.of("timeout", "timeout", "Execution timeout: the job ran past its timeout_ms of "
                    + row.timeoutMs() + " ms without finishing (held by " + worker + ").", true, null);
        }
        return FailureReport.of("timeout", "visibility_timeout", "Lease expired: no ack, fail or heartbeat from "
                + worker + " before " + row.leaseExpiresAt() + "; the attempt counts as failed.", true, null);
    }
}
