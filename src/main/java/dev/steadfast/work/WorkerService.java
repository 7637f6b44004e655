package dev.steadfast.work;

import dev.steadfast.coalescing.Coalescer;
import dev.steadfast.coalescing.Coalescers;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.events.Telemetry;
import dev.steadfast.events.WorkSignal;
import dev.steadfast.jobs.Refusals;
import dev.steadfast.model.Completion;
import dev.steadfast.model.JobRow;
import dev.steadfast.queues.QueueLimiter;
import dev.steadfast.store.Attempt;
import dev.steadfast.store.JobStore;
import dev.steadfast.tenants.TenantFairness;
import dev.steadfast.workflows.WorkflowService;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The worker-side OJS operations: FETCH (claim with a lease) and ACK. FAIL lives in {@link FailureService}.
 */
@ApplicationScoped
public class WorkerService {

    private final JobStore store;
    private final Clock clock;
    private final Telemetry telemetry;

    private final Coalescer<Completion, Completion.Result> acks;

    private final HeldAttempts held;
    private final WorkSignal signal;
    private final Duration pollInterval;

    private final LeaseExpiry expiry;
    private final ExpiredJobs expired;
    private final Draining draining;
    private final QueueLimiter limiter;
    private final WorkflowService workflows;
    private final TenantFairness fairness;

    public WorkerService(JobStore store, Clock clock, Telemetry telemetry, FetchConfig config, HeldAttempts held,
                         WorkSignal signal, LeaseExpiry expiry, ExpiredJobs expired, Draining draining,
                         QueueLimiter limiter, WorkflowService workflows, Coalescers coalescers,
                         TenantFairness fairness) {
        this.fairness = fairness;
        this.workflows = workflows;
        this.draining = draining;
        this.limiter = limiter;
        this.expiry = expiry;
        this.expired = expired;
        this.store = store;
        this.clock = clock;
        this.telemetry = telemetry;
        this.held = held;
        this.signal = signal;
        this.pollInterval = config.pollInterval();
        this.acks = coalescers.create("ack", this::completeAll);
    }

    /**
     * Completes a batch of acks in one statement. Only the first ack of a job in the batch can succeed: a second
     * one for the same job answers as if it came after (the job is no longer active).
     */
    private Uni<List<Completion.Result>> completeAll(List<Completion> batch) {
        Instant now = OperationTime.of(clock);
        return Coalescer.firstOfEachKey(batch, Completion::jobId, Completion.Result::jobId,
                unique -> store.complete(unique, now));
    }

    /**
     * Claims up to {@code count} jobs from {@code queues}, taking the queues in the order given: a later queue
     * gives only what the earlier ones could not supply. One statement for all the queues. With a {@code wait}
     * (long-poll), an empty claim waits until work may have arrived in one of the queues ({@link WorkSignal}),
     * polling every steadfast.fetch.poll-interval in case a notification was lost, and answers empty only when
     * the wait is over; the waiting request holds no database connection.
     */
    public Uni<List<JobRow>> fetch(List<String> queues, int count, String workerId, Long visibilityMs, Duration wait) {
        return fetch(queues, count, workerId, visibilityMs, wait, null);
    }

    /** {@link #fetch} by a worker that named its tenant ({@code tenant}, checked; null: every tenant's jobs). */
    public Uni<List<JobRow>> fetch(List<String> queues, int count, String workerId, Long visibilityMs, Duration wait,
                                   String tenant) {
        Instant deadline = wait == null || wait.isZero() ? null : clock.instant().plus(wait);
        return claim(queues, count, workerId, visibilityMs, tenant).flatMap(jobs ->
                jobs.isEmpty() && deadline != null
                        ? waitThenClaim(queues, count, workerId, visibilityMs, deadline, tenant)
                        : Uni.createFrom().item(jobs));
    }

    private Uni<List<JobRow>> waitThenClaim(List<String> queues, int count, String workerId, Long vis,
                                            Instant deadline, String tenant) {
        Duration left = Duration.between(clock.instant(), deadline);
        if (left.isNegative() || left.isZero() || draining.serverDraining()) {
            return Uni.createFrom().item(List.of());
        }
        Duration nap = left.compareTo(pollInterval) < 0 ? left : pollInterval;
        // plain: any job of these queues would do, so one wake is enough for this FETCH (WorkSignal)
        boolean plain = tenant == null && draining.acceptsNow(workerId);
        return signal.await(queues, nap, plain).flatMap(why -> claim(queues, count, workerId, vis, tenant)
                .invoke(jobs -> {
                    if (why == WorkSignal.Wake.MAYBE_MORE && jobs.size() >= count) {
                        // woken for an unknown number of jobs and filled up: the next waiter looks for more
                        queues.forEach(q -> signal.notified(q));
                    }
                }))
                .flatMap(jobs -> jobs.isEmpty() ? waitThenClaim(queues, count, workerId, vis, deadline, tenant)
                        : Uni.createFrom().item(jobs));
    }

    private Uni<List<JobRow>> claim(List<String> queues, int count, String workerId, Long visibilityMs,
                                    String tenant) {
        Instant now = OperationTime.of(clock);
        // Expired leases are taken back beside the claim, not before it: the FETCH that happens to trigger it does
        // not wait for it, and what it frees is claimable by the next FETCH, within steadfast.fetch.reap-interval.
        expiry.reapIfDue(now).subscribe().with(n -> { }, e -> { });
        // Likewise jobs whose expires_at passed: the claim passes them over, this makes them discarded.
        expired.discardIfDue(now).subscribe().with(n -> { }, e -> { });
        // A worker that said it is quiet or draining, or any worker while this server shuts down, gets nothing.
        return draining.acceptsWork(workerId, now).flatMap(ok -> !ok ? Uni.createFrom().item(List.<JobRow>of())
                : tenant != null ? fairness.claimOf(tenant, queues, count, workerId, visibilityMs, now)
                : limiter.claim(queues, count, workerId, visibilityMs, now)).invoke(jobs -> {
            for (JobRow j : jobs) {
                held.put(Attempt.of(j));
                expiry.expiresAt(j.leaseExpiresAt());
                telemetry.started(j, workerId, now);
            }
        });
    }

    /**
     * SNOOZE (extension): hands an active job back to run at {@code until} (or after {@code delay}) without counting a failed attempt
     * or lengthening its backoff (Kathikon's {:sleep, s}, Oban's and River's snooze).
     */
    public Uni<JobRow> snooze(UUID id, String workerId, Duration delay, Instant until) {
        Instant now = OperationTime.of(clock);
        return store.snooze(id, workerId, until != null ? until : now.plus(delay), now).flatMap(o -> {
            if (o.isPresent()) {
                held.forget(id);
                telemetry.requeued(o.get(), now);
                signal.dueAt(o.get().queue(), o.get().runAt());
                return Uni.createFrom().item(o.get());
            }
            return Refusals.explain(store, id, Operation.SNOOZE, now).map(v -> (JobRow) null);
        });
    }

    /** ACK: completes an active job held by this worker and returns when; 404 / 409 otherwise. */
    public Uni<Instant> ack(UUID id, String resultJson, String workerId) {
        return complete(new Completion(id, resultJson, workerId)).map(o -> {
            if (o.error() != null) {
                throw o.error();
            }
            return o.completedAt();
        });
    }

    /** A workflow step's ACK in its workflow's transaction ({@code workflow} null: read there); null when refused. */
    private Uni<Completion.Done> completeStep(Completion c, UUID workflow) {
        return workflows.completeStep(c, workflow).map(o -> o.orElse(null));
    }

    /** Why the shared statement refused {@code c}, from the job as it saw it; null when that does not explain it. */
    private OjsException why(Completion c, Completion.Refused f) {
        return Refusals.of(c.jobId(), Operation.ACK, f.job(), c.workerId(), OperationTime.of(clock));
    }

    /** One ACK's outcome: when the job completed, or why it was refused (for the batch extension). */
    public record AckOutcome(UUID jobId, Instant completedAt, OjsException error) {
    }

    /**
     * ACK with the refusal as a value; concurrent ACKs of plain jobs share one statement and one commit, and a
     * workflow step is completed in its workflow's transaction, which advances the workflow. Where it goes is
     * decided up front from the attempt this instance handed out ({@link HeldAttempts}: the claim returns the job's
     * workflow); a job this instance did not hand out (another instance did, or this one forgot it) goes to the
     * shared statement, which skips steps and answers a refusal with the job as it saw it: that explains the
     * refusal, or names the workflow the step goes to. Only a job that changed since (or the repeat of an ACK in
     * the same batch) is read again. Refused unapplied when too many ACKs already wait ({@link Coalescer}: 503,
     * retryable).
     */
    public Uni<AckOutcome> complete(Completion c) {
        Attempt known = held.get(c.jobId());
        Uni<Completion.Result> done = known != null && known.workflowStep()
                ? completeStep(c, known.workflowId()).map(d -> d)
                : acks.submit(c).flatMap(r -> r instanceof Completion.Refused f && f.workflowId() != null
                        && why(c, f) == null ? completeStep(c, f.workflowId()).map(d -> d) : Uni.createFrom().item(r));
        return done.flatMap(r -> {
            if (!(r instanceof Completion.Done d)) {
                OjsException why = r instanceof Completion.Refused f ? why(c, f) : null;
                return why != null ? Uni.createFrom().item(new AckOutcome(c.jobId(), null, why))
                        : Refusals.refusal(store, c.jobId(), Operation.ACK, OperationTime.of(clock))
                                .map(e -> new AckOutcome(c.jobId(), null, e));
            }
            held.forget(c.jobId());
            // A limited tenant's job finished: a FETCH waiting for the tenant's next job may start it now.
            fairness.finished(c.jobId()).forEach(q -> signal.wake(q, 1));
            telemetry.completed(c.jobId().toString(), d.type(), d.queue(), d.attempt(), d.startedAt(), d.completedAt(),
                    d.traceparent());
            return Uni.createFrom().item(new AckOutcome(c.jobId(), d.completedAt(), null));
        }).onFailure(Coalescer::refusal).recoverWithItem(e -> new AckOutcome(c.jobId(), null, (OjsException) e));
    }
}
