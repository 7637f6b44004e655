package dev.steadfast.workflows;

import dev.steadfast.maintenance.MaintenanceHealth;
import dev.steadfast.maintenance.MaintenanceRuns;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Advances workflows whose member jobs finished without a worker's ACK or FAIL, which advance their workflow
 * themselves: a lease that ran out on the last attempt (lease reaper), an expired job, a single job cancelled
 * through the jobs API, operator actions. Up to {@link #BATCH} workflows per run, one transaction each; each
 * workflow row is locked {@code FOR UPDATE SKIP LOCKED} (one being advanced elsewhere is left to that
 * transaction, so a run never loops on it) and an outcome is recorded once, so every instance may run it at once. Runs every
 * steadfast.maintenance.workflow-interval (default 1 s), through {@link MaintenanceRuns}.
 */
@ApplicationScoped
class WorkflowAdvancer {

    static final int BATCH = 100;

    private final WorkflowService workflows;
    private final MaintenanceRuns runs;

    public WorkflowAdvancer(WorkflowService workflows, MaintenanceRuns runs) {
        this.workflows = workflows;
        this.runs = runs;
    }

    @Scheduled(identity = MaintenanceHealth.WORKFLOW_ADVANCER, every = "${steadfast.maintenance.workflow-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return runs.run(MaintenanceHealth.WORKFLOW_ADVANCER, now -> runOnce());
    }

    /** Advances up to {@link #BATCH} workflows; returns how many were looked at. */
    public Uni<Integer> runOnce() {
        return workflows.advanceFinished(BATCH);
    }
}
