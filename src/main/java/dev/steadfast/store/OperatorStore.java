package dev.steadfast.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Transitions only an operator makes (console and admin API): run a waiting job now, re-enqueue a finished one as
 * a new run, delete a job, delete completed jobs before a cutoff. Each is one guarded statement; the guard's states come from the
 * {@link dev.steadfast.domain.JobStateMachine}, so a job that moved meanwhile is left alone and reported as "no row".
 */
@ApplicationScoped
public class OperatorStore {

    /**
     * RETRY_NOW: a scheduled or retryable job becomes available at once; enqueued_at moves to now, as when the
     * promoter makes a job due.
     */
    static final String MAKE_AVAILABLE_NOW = "UPDATE jobs SET state = 'available', run_at = $2, enqueued_at = $2"
            + " WHERE id = $1 AND state = ANY($3) RETURNING " + JobRow.COLUMNS;

    /** REVIVE: a cancelled or (not dead-lettered) discarded job runs again as a new run (JobSql.NEW_RUN_SET). */
    static final String REVIVE = JobSql.NEW_RUN_SET.formatted(2)
            + " WHERE id = $1 AND state = ANY($3) AND NOT dead_letter RETURNING " + JobRow.COLUMNS;

    /**
     * DELETE_JOB: gone for good. An active job is refused: its worker holds a lease and would report on a job
     * that no longer exists; cancel it first.
     */
    static final String DELETE = "DELETE FROM jobs WHERE id = $1 AND state <> 'active' RETURNING " + JobRow.COLUMNS;

    /**
     * DELETE_COMPLETED_BEFORE (zzz_jobs' deleteCompleted): completed jobs that finished before $1, a bounded batch
     * per statement (the caller loops) from jobs_finished_idx. Only completed jobs: discarded, cancelled and
     * dead-lettered ones keep their error history until retention or an operator removes them. SKIP LOCKED, so it
     * never waits on the pruner doing the same.
     */
    static final String DELETE_COMPLETED_BEFORE = """
            WITH old AS (
                SELECT id FROM jobs WHERE state = 'completed' AND NOT dead_letter AND completed_at < $1
                LIMIT $2 FOR UPDATE SKIP LOCKED)
            DELETE FROM jobs j USING old WHERE j.id = old.id""";

    private final Pool pool;

    public OperatorStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Optional<JobRow>> makeAvailableNow(UUID id, String[] fromStates, Instant now) {
        return JobStore.one(pool.preparedQuery(MAKE_AVAILABLE_NOW).execute(Tuple.of(id, JobStore.odt(now), fromStates)));
    }

    public Uni<Optional<JobRow>> revive(UUID id, String[] fromStates, Instant now) {
        return JobStore.one(pool.preparedQuery(REVIVE).execute(Tuple.of(id, JobStore.odt(now), fromStates)));
    }

    /** Deletes up to {@code limit} jobs completed before {@code before}; returns how many. */
    public Uni<Integer> deleteCompletedBefore(Instant before, int limit) {
        return pool.preparedQuery(DELETE_COMPLETED_BEFORE).execute(Tuple.of(JobStore.odt(before), limit))
                .map(rows -> rows.rowCount());
    }

    /** Deletes the job unless it is active; empty when nothing was deleted. */
    public Uni<Optional<JobRow>> delete(UUID id) {
        return JobStore.one(pool.preparedQuery(DELETE).execute(Tuple.of(id)));
    }
}
