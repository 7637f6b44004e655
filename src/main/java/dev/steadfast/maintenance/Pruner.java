package dev.steadfast.maintenance;

import dev.steadfast.audit.AuditConfig;
import dev.steadfast.audit.AuditLog;
import dev.steadfast.store.errorgroups.ErrorGroupStore;
import dev.steadfast.store.maintenance.MaintenanceStore;
import dev.steadfast.store.workflows.WorkflowStore;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Drops finished jobs (completed, cancelled, discarded without dead letter) once they are older than
 * steadfast.retention.finished: whole day partitions of the history (V18__live_jobs_and_history.sql) once their UTC
 * day ended before the cut-off, so a finished job is kept for the retention and at most one day more; rows that
 * landed in the default partition are deleted row by row. It also creates the history's partitions for today and the
 * next {@link #DAYS_AHEAD} days, removes progress rows whose job is gone and the checkpoints of jobs that completed, were cancelled or are gone (a dead letter's stays for a retry), drops finished workflows once older than steadfast.retention.workflows (default: the
 * same), forgets workers not heard from for ten heartbeat timeouts, drops error groups' hourly counts older than
 * {@link #ERROR_HOURS_KEPT} and forgets an error group once it failed last before steadfast.retention.finished and
 * no job carries it any more, and deletes audit entries older than steadfast.audit.retention (default 90
 * days). Dead-lettered jobs are kept until an
 * operator deletes them, unless steadfast.retention.dead-letter is set. A workflow is kept while any of its jobs
 * is still live; its jobs are pruned by their own rules, independently of it. Bounded batches,
 * SKIP LOCKED: safe on every instance at once. Runs every steadfast.maintenance.pruner-interval (default 60 s,
 * first 10 s after start-up) on the Quarkus scheduler, through {@link MaintenanceRuns}.
 */
@ApplicationScoped
public class Pruner {

    private static final Logger LOG = Logger.getLogger(Pruner.class);

    /** The first run waits this long after start-up, out of the way of a starting instance's first fetches. */
    public static final String FIRST_RUN_DELAY = "10s";

    private final MaintenanceStore store;
    private final MaintenanceConfig maintenanceConfig;
    private final RetentionConfig retention;
    private final WorkerTimeoutConfig workers;
    private final MaintenanceRuns runs;

    private final WorkflowStore workflows;
    private final ErrorGroupStore errorGroups;
    private final AuditLog audit;
    private final AuditConfig auditConfig;

    public Pruner(MaintenanceStore store, MaintenanceConfig maintenanceConfig, RetentionConfig retention,
                  WorkerTimeoutConfig workers, MaintenanceRuns runs, WorkflowStore workflows,
                  ErrorGroupStore errorGroups, AuditLog audit, AuditConfig auditConfig) {
        this.store = store;
        this.audit = audit;
        this.auditConfig = auditConfig;
        this.errorGroups = errorGroups;
        this.workflows = workflows;
        this.maintenanceConfig = maintenanceConfig;
        this.retention = retention;
        this.workers = workers;
        this.runs = runs;
    }

    @Scheduled(identity = MaintenanceHealth.PRUNER, every = "${steadfast.maintenance.pruner-interval}",
            delayed = FIRST_RUN_DELAY, concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return runs.run(MaintenanceHealth.PRUNER, now -> runOnce(now).invoke(n -> {
            if (n > 0) {
                LOG.infof("pruned %d finished jobs", n);
            }
        }));
    }

    /** Error groups' hourly counts are kept this long: the console's sparkline shows the last 24 hours. */
    public static final Duration ERROR_HOURS_KEPT = Duration.ofHours(48);

    /** Partitions exist this many days ahead, so a missed run or two never sends a day to the default partition. */
    static final int DAYS_AHEAD = 3;

    /** Prunes everything past retention at {@code now}; returns how many jobs were deleted. */
    public Uni<Integer> runOnce(Instant now) {
        int batch = maintenanceConfig.batchSize();
        Instant before = now.minus(retention.finished());
        Uni<Integer> finished = store.preparePartitions(now, DAYS_AHEAD)
                .flatMap(x -> store.dropPartitionsBefore(before))
                .flatMap(dropped -> Batches.untilShort(() -> store.pruneFinished(before, batch), batch)
                        .map(deleted -> dropped + deleted))
                .call(x -> Batches.untilShort(() -> store.pruneOrphanProgress(batch), batch))
                .call(x -> Batches.untilShort(() -> store.pruneFinishedCheckpoints(batch), batch));
        Uni<Integer> dead = retention.deadLetter()
                .map(age -> Batches.untilShort(() -> store.pruneDeadLetters(now.minus(age), batch), batch))
                .orElse(Uni.createFrom().item(0));
        Instant forgetBefore = now.minus(workers.heartbeatTimeout().multipliedBy(10));
        return finished.flatMap(a -> dead.flatMap(b -> pruneWorkflows(now).flatMap(
                wf -> store.forgetWorkers(forgetBefore).flatMap(w -> pruneErrorGroups(now))
                        .flatMap(g -> pruneAudit(now)).map(g -> a + b))));
    }

    /** Drops old hourly counts and forgets the error groups past retention that no job carries; answers how many groups. */
    public Uni<Integer> pruneErrorGroups(Instant now) {
        int batch = maintenanceConfig.batchSize();
        return Batches.untilShort(() -> errorGroups.pruneHours(now.minus(ERROR_HOURS_KEPT), batch), batch)
                .flatMap(h -> Batches.untilShort(() -> errorGroups.pruneGroups(now.minus(retention.finished()),
                        batch), batch));
    }

    /** Deletes the audit entries older than steadfast.audit.retention at {@code now}; answers how many. */
    public Uni<Integer> pruneAudit(Instant now) {
        int batch = maintenanceConfig.batchSize();
        Instant before = now.minus(auditConfig.retention());
        return Batches.untilShort(() -> audit.pruneBatch(before, batch), batch).invoke(n -> {
            if (n > 0) {
                LOG.infof("pruned %d audit entries", n);
            }
        });
    }

    /** Deletes the finished workflows past retention at {@code now}; returns how many. */
    public Uni<Integer> pruneWorkflows(Instant now) {
        int batch = maintenanceConfig.batchSize();
        Instant before = now.minus(retention.workflows().orElse(retention.finished()));
        return Batches.untilShort(() -> workflows.pruneFinished(before, batch), batch).invoke(n -> {
            if (n > 0) {
                LOG.infof("pruned %d finished workflows", n);
            }
        });
    }
}
