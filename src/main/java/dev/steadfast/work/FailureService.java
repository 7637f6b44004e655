package dev.steadfast.work;

import dev.steadfast.coalescing.Coalescer;
import dev.steadfast.coalescing.Coalescers;
import dev.steadfast.domain.FailureReport;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.domain.retry.Failure;
import dev.steadfast.events.Telemetry;
import dev.steadfast.events.WorkSignal;
import dev.steadfast.jobs.Refusals;
import dev.steadfast.model.JobRow;
import dev.steadfast.model.StateAndOwner;
import dev.steadfast.store.Attempt;
import dev.steadfast.store.FailureWrite;
import dev.steadfast.store.JobStore;
import dev.steadfast.tenants.TenantFairness;
import dev.steadfast.workflows.WorkflowService;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * FAIL (nack): the retry engine decides the attempt's outcome (retry with backoff, discard, or dead-letter) in the
 * domain, and one guarded statement records it, the error appended to the history in SQL. The facts the decision
 * needs (attempt, snoozes, run, policy) come from this instance's own claims ({@link HeldAttempts}), or, for a
 * job another instance handed out, from one coalesced read; no transaction spans a round trip: the write applies
 * only to the attempt it was decided for. Concurrent FAILs share one read and one write statement, like ACKs.
 */
@ApplicationScoped
class FailureService {

    private final JobStore store;
    private final Clock clock;
    private final AttemptOutcomes outcomes;
    private final Telemetry telemetry;
    private final HeldAttempts held;
    private final WorkSignal signal;
    private final Coalescer<UUID, Attempt> reads;
    private final Coalescer<FailureWrite, JobRow> writes;
    private final WorkflowService workflows;
    private final TenantFairness fairness;

    public FailureService(JobStore store, Clock clock, AttemptOutcomes outcomes, Telemetry telemetry,
                          HeldAttempts held, WorkSignal signal, WorkflowService workflows, Coalescers coalescers,
                          TenantFairness fairness) {
        this.fairness = fairness;
        this.workflows = workflows;
        this.store = store;
        this.clock = clock;
        this.outcomes = outcomes;
        this.telemetry = telemetry;
        this.held = held;
        this.signal = signal;
        this.reads = coalescers.create("fail-read", this::readAll);
        this.writes = coalescers.create("fail-write", this::writeAll);
    }

    public Uni<JobRow> fail(FailCommand c) {
        return record(c).map(o -> {
            if (o instanceof FailOutcome.Failed f) {
                return f.job();
            }
            throw ((FailOutcome.Refused) o).error();
        });
    }

    /**
     * One FAIL's outcome, refusals included as values, for the batch extension (no exception per item); refused
     * unapplied when too many FAILs already wait ({@link Coalescer}: 503, retryable).
     */
    public Uni<FailOutcome> record(FailCommand c) {
        Attempt cached = held.get(c.jobId());
        // What this instance remembers may be outdated (another instance reaped the lease and handed the job out
        // again): a write refused for that reason is decided once more from the database.
        Uni<FailOutcome> out = cached == null ? record(c, reads.submit(c.jobId()), false)
                : record(c, Uni.createFrom().item(cached), true);
        return out.onFailure(Coalescer::refusal).recoverWithItem(e -> new FailOutcome.Refused(c.jobId(), (OjsException) e));
    }

    private Uni<FailOutcome> record(FailCommand c, Uni<Attempt> attempt, boolean fromMemory) {
        Instant now = OperationTime.of(clock);
        return attempt.flatMap(a -> {
            FailureWrite w;
            try {
                w = decide(a, c, now);
            } catch (OjsException e) {
                return Uni.createFrom().item((FailOutcome) new FailOutcome.Refused(c.jobId(), e));
            }
            // A workflow step's FAIL is written in its workflow's transaction, every other one by the batched
            // write (which skips steps); the attempt, remembered or read, says which the job is.
            Uni<JobRow> written = a.workflowStep()
                    ? workflows.failStep(w, a.workflowId(), outcomes.historyKept(), OperationTime.of(clock))
                            .map(o -> o.orElse(null))
                    : writes.submit(w);
            return written.flatMap(row -> {
                if (row == null && fromMemory) {
                    held.forget(c.jobId());
                    return record(c, reads.submit(c.jobId()), false);
                }
                if (row == null) {
                    // the attempt was read for this decision: its facts explain a refusal by the lease's end or
                    // holder without a read of their own; only a job changed since is read again
                    OjsException why = Refusals.of(c.jobId(), Operation.FAIL, new StateAndOwner(a.state(),
                            a.leaseOwner(), a.leaseExpiresAt()), c.workerId(), now);
                    return why != null ? Uni.createFrom().item((FailOutcome) new FailOutcome.Refused(c.jobId(), why))
                            : Refusals.refusal(store, c.jobId(), Operation.FAIL, now)
                                    .map(e -> (FailOutcome) new FailOutcome.Refused(c.jobId(), e));
                }
                held.forget(row.id());
                // A limited tenant's job stopped running: a FETCH waiting for the tenant's next job may start it.
                fairness.finished(row.id()).forEach(q -> signal.wake(q, 1));
                telemetry.failed(row, c.report(), now);
                if (row.state() == JobState.RETRYABLE || row.state() == JobState.AVAILABLE) {
                    signal.dueAt(row.queue(), row.runAt());
                }
                return Uni.createFrom().item((FailOutcome) new FailOutcome.Failed(row));
            });
        });
    }

    /** A FAIL's result: the job as written, or why it was refused. */
    public sealed interface FailOutcome {
        record Failed(JobRow job) implements FailOutcome {
        }

        record Refused(UUID jobId, OjsException error) implements FailOutcome {
        }
    }

    /** The retry engine's decision for the attempt; refuses (409/404) what the state machine or the lease forbid. */
    private FailureWrite decide(Attempt a, FailCommand c, Instant now) {
        // the guard's rules (state machine, lease end, holder), as the statement's refusals are explained
        OjsException refused = Refusals.of(c.jobId(), Operation.FAIL,
                a == null ? null : new StateAndOwner(a.state(), a.leaseOwner(), a.leaseExpiresAt()), c.workerId(), now);
        if (refused != null) {
            throw refused;
        }
        FailureReport r = c.report();
        Failure failure = new Failure(r.type(), r.handlerCode().orElse(null), r.retryable(), false);
        return outcomes.failed(a, r, failure, c.details(), c.backtrace(), c.workerId(), now, now);
    }

    private Uni<List<Attempt>> readAll(List<UUID> ids) {
        return store.attempts(new ArrayList<>(new HashSet<>(ids))).map(found -> {
            Map<UUID, Attempt> byId = new HashMap<>();
            found.forEach(a -> byId.put(a.id(), a));
            List<Attempt> out = new ArrayList<>(ids.size());
            ids.forEach(id -> out.add(byId.get(id)));
            return out;
        });
    }

    /** Only the first write for a job in a batch can apply; a repeat answers as if it came after (refused). */
    private Uni<List<JobRow>> writeAll(List<FailureWrite> batch) {
        Instant fence = OperationTime.of(clock);
        return Coalescer.firstOfEachKey(batch, FailureWrite::jobId, JobRow::id,
                unique -> store.recordFailures(unique, outcomes.historyKept(), fence));
    }
}
