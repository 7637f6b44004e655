package dev.steadfast.store.maintenance;

import dev.steadfast.model.JobRow;
import dev.steadfast.store.FinishedJobEntity;
import dev.steadfast.store.HistorySql;
import dev.steadfast.store.JobColumns;
import dev.steadfast.store.JobEntity;
import dev.steadfast.store.deadletters.DeadLetterStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Transitions only an operator makes (console and admin API), through {@link JobEntity} and
 * {@link FinishedJobEntity}: run a waiting job now, re-enqueue a finished one as a new run (back into the live table,
 * {@link HistorySql#START_NEW_RUNS}), delete a job, delete completed jobs before a cutoff. A single-job action
 * locks the row ({@code SELECT ... FOR UPDATE}, or the move's own DELETE) and applies only when the job is still in
 * one of the states the caller passes, which come from the {@link dev.steadfast.domain.JobStateMachine}; a job that
 * moved meanwhile is left alone and reported as empty.
 */
@ApplicationScoped
public class OperatorStore {

    private final Pool pool;

    public OperatorStore(Pool pool) {
        this.pool = pool;
    }

    /** RETRY_NOW: a scheduled or retryable job becomes available at once ({@link JobEntity#makeAvailable}). */
    public Uni<Optional<JobRow>> makeAvailableNow(UUID id, String[] fromStates, Instant now) {
        List<String> from = Arrays.asList(fromStates);
        return Panache.withTransaction(() -> JobEntity.<JobEntity>findById(id, LockModeType.PESSIMISTIC_WRITE)
                .map(e -> {
                    if (e == null || !from.contains(e.state)) {
                        return Optional.<JobRow>empty();
                    }
                    e.makeAvailable(now);
                    return Optional.of(e.toRow());
                }));
    }

    /** REVIVE: a cancelled or (not dead-lettered) discarded job runs again as a new run. */
    public Uni<Optional<JobRow>> revive(UUID id, String[] fromStates, Instant now) {
        return DeadLetterStore.startNewRun(pool, id, fromStates, false, now);
    }

    /**
     * DELETE_COMPLETED_BEFORE (zzz_jobs' deleteCompleted): completed jobs that finished before the cutoff, a
     * bounded batch per transaction (the caller loops) from jobs_finished_idx. Only completed jobs: discarded,
     * cancelled and dead-lettered ones keep their error history until retention or an operator removes them. SKIP
     * LOCKED, so it never waits on the pruner doing the same.
     */
    static final String COMPLETED_BEFORE = "where j.state = 'completed'"
            + " and j.deadLetter = false and j.completedAt < :before";

    /** Deletes up to {@code limit} jobs completed before {@code before}; returns how many. */
    public Uni<Integer> deleteCompletedBefore(Instant before, int limit) {
        return Panache.withTransaction(() -> DeadLetterStore.lockedIds(COMPLETED_BEFORE,
                        Map.of("before", before), limit)
                .flatMap(batch -> {
                    if (batch.isEmpty()) {
                        return Uni.createFrom().item(0);
                    }
                    return FinishedJobEntity.delete("id in ?1 and state = 'completed'", batch)
                            .map(Long::intValue);
                }));
    }

    /**
     * DELETE_JOB: gone for good; empty when nothing was deleted. An active job is refused: its worker holds a
     * lease and would report on a job that no longer exists; cancel it first. A live job is looked for first, then
     * a finished one.
     */
    public Uni<Optional<JobRow>> delete(UUID id) {
        return Panache.withTransaction(() -> JobEntity.<JobEntity>findById(id, LockModeType.PESSIMISTIC_WRITE)
                .flatMap(e -> {
                    if (e != null) {
                        return "active".equals(e.state) ? Uni.createFrom().item(Optional.<JobRow>empty())
                                : deleted(e);
                    }
                    return FinishedJobEntity.<FinishedJobEntity>findById(id, LockModeType.PESSIMISTIC_WRITE)
                            .flatMap(f -> f == null ? Uni.createFrom().item(Optional.<JobRow>empty()) : deleted(f));
                }));
    }

    private static Uni<Optional<JobRow>> deleted(JobColumns e) {
        JobRow row = e.toRow();
        return e.delete().replaceWith(Optional.of(row));
    }
}
