package dev.steadfast.operations;

import dev.steadfast.audit.AuditLog;
import dev.steadfast.domain.BulkJobAction;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.maintenance.Batches;
import dev.steadfast.maintenance.MaintenanceConfig;
import dev.steadfast.model.BulkScope;
import dev.steadfast.model.JobFilter;
import dev.steadfast.stats.DepthCounts;
import dev.steadfast.store.JobBulkStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Cancel, retry or delete many jobs at once: a selection, or everything a filter matches (the console's jobs
 * list). The states each action applies to come from {@link BulkJobAction} (the state machine's, never
 * {@code active}), narrowed by the filter's state; the work is done by {@link JobBulkStore} in batches of
 * {@code steadfast.maintenance.batch-size}, looping until a batch comes back short, so memory stays bounded
 * however many jobs match. Jobs that moved meanwhile (claimed by a worker, changed by another operator) are
 * skipped, so the number done can be lower than the number counted for the confirmation.
 * <ul>
 *   <li>cancel: waiting live jobs move to the history as cancelled (as CANCEL);</li>
 *   <li>retry: scheduled and retryable jobs run now (RETRY_NOW), dead letters (RETRY_DEAD_LETTER) and other
 *       discarded or cancelled jobs (REVIVE) start a new run;</li>
 *   <li>delete: every job but an active one, gone for good.</li>
 * </ul>
 * Each action answers how many jobs it changed, for the caller to report and record.
 */
@ApplicationScoped
public class JobBulkService {

    private static final Logger LOG = Logger.getLogger(JobBulkService.class);

    @Inject // a field: the audit note is an addition every bulk service shares, outside its constructor
    AuditLog audit;
    private final JobBulkStore store;
    private final DepthCounts depth;
    private final Clock clock;
    private final int batch;

    public JobBulkService(JobBulkStore store, DepthCounts depth, Clock clock, MaintenanceConfig config) {
        this.store = store;
        this.depth = depth;
        this.clock = clock;
        this.batch = config.batchSize();
    }

    /**
     * The confirmation's count: how many jobs in the scope {@code action} would change. {@code at} is when they were
     * counted: now, or, for a filter of only a state and a queue, the time of the shared depth counts
     * ({@link DepthCounts}, at most steadfast.console.counts-max-age old), which count every state of every queue
     * at once, so that "retry everything retryable" at a million jobs costs no count of its own. {@code atLeast}: the
     * count stopped at JobBulkStore.COUNT_CAP per table, so more may match (the action itself has no such limit).
     */
    public record Count(long jobs, Instant at, boolean shared, boolean atLeast) {
    }

    /** A count's cap per table (the page says "at least" past it). */
    public static final int COUNT_CAP = JobBulkStore.COUNT_CAP;
    /** The rows a count reads, newest first, of a part without its condition's index. */
    public static final int COUNT_READ_CAP = JobBulkStore.COUNT_READ_CAP;

    public Uni<Count> count(BulkJobAction action, BulkScope scope) {
        Set<JobState> states = action.sourcesWithin(stateOf(scope));
        JobFilter f = scope.filter();
        if (f != null && f.type() == null && f.tag() == null && f.since() == null && f.until() == null
                && !f.searchesText()) {
            return depth.get().map(snapshot -> new Count(snapshot.byQueue().entrySet().stream()
                    .filter(q -> f.queue() == null || f.queue().equals(q.getKey()))
                    .flatMap(q -> q.getValue().entrySet().stream())
                    .filter(e -> states.contains(e.getKey())).mapToLong(Map.Entry::getValue).sum(),
                    snapshot.at(), true, false));
        }
        Instant now = clock.instant();
        return store.count(scope, names(states, false), names(states, true)).map(m -> new Count(m.jobs(), now, false, m.atLeast()));
    }

    public Uni<Long> cancel(BulkScope scope, String by) {
        Instant now = OperationTime.of(clock);
        String[] live = names(BulkJobAction.CANCEL.sourcesWithin(stateOf(scope)), false);
        return logged("cancel", by, loop(live, () -> store.cancelBatch(scope, live, now, batch)));
    }

    public Uni<Long> retry(BulkScope scope, String by) {
        Instant now = OperationTime.of(clock);
        Set<JobState> within = BulkJobAction.RETRY.sourcesWithin(stateOf(scope));
        String[] live = names(within, Operation.RETRY_NOW);
        String[] dead = names(within, Operation.RETRY_DEAD_LETTER);
        String[] revive = names(within, Operation.REVIVE);
        return logged("retry", by, loop(live, () -> store.retryNowBatch(scope, live, now, batch))
                .flatMap(a -> loop(dead, () -> store.newRunsBatch(scope, dead, true, now, batch)).map(b -> a + b))
                .flatMap(ab -> loop(revive, () -> store.newRunsBatch(scope, revive, false, now, batch))
                        .map(c -> ab + c)));
    }

    public Uni<Long> delete(BulkScope scope, String by) {
        Set<JobState> within = BulkJobAction.DELETE.sourcesWithin(stateOf(scope));
        String[] live = names(within, false);
        String[] finished = names(within, true);
        return logged("delete", by, loop(live, () -> store.deleteLiveBatch(scope, live, batch))
                .flatMap(a -> loop(finished, () -> store.deleteFinishedBatch(scope, finished, batch))
                        .map(b -> a + b)));
    }

    private Uni<Long> loop(String[] states, Supplier<Uni<Integer>> step) {
        return states.length == 0 ? Uni.createFrom().item(0L)
                : Batches.untilShort(step, batch).map(Integer::longValue);
    }

    private Uni<Long> logged(String action, String by, Uni<Long> done) {
        return done.invoke(n -> {
            LOG.infof("bulk %s by %s: %d jobs", action, by, n);
            audit.noteJobs(n);
        });
    }

    private static JobState stateOf(BulkScope scope) {
        return scope.filter() == null ? null : scope.filter().state();
    }

    /** The wire names of {@code states} of one table: the history's (terminal) or the live table's. */
    private static String[] names(Set<JobState> states, boolean terminal) {
        return states.stream().filter(s -> s.terminal() == terminal).map(JobState::wire).toArray(String[]::new);
    }

    /** The wire names of {@code within} that {@code op} starts from. */
    private static String[] names(Set<JobState> within, Operation op) {
        EnumSet<JobState> s = EnumSet.copyOf(JobStateMachine.sources(op));
        s.retainAll(within);
        return s.stream().map(JobState::wire).toArray(String[]::new);
    }
}
