package dev.steadfast.operations;

import dev.steadfast.audit.AuditLog;
import dev.steadfast.deadletters.DeadLetterService;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.events.Telemetry;
import dev.steadfast.jobs.JobService;
import dev.steadfast.maintenance.Batches;
import dev.steadfast.maintenance.MaintenanceConfig;
import dev.steadfast.model.JobFilter;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.maintenance.OperatorStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * What an operator does to one job, shared by the console and the admin API (ojs-admin-api.md 7.3, 7.4):
 * <ul>
 *   <li>retry: a scheduled or retryable job runs now; a dead letter is re-enqueued through
 *       {@link DeadLetterService#retry}; a cancelled or discarded job is re-enqueued as a new run;</li>
 *   <li>cancel: {@link JobService#cancel(UUID, String)};</li>
 *   <li>delete: any job that is not active;</li>
 *   <li>delete completed jobs before a cutoff, in bounded batches.</li>
 * </ul>
 * Every action names who did it ({@code by}, e.g. "console:alice"), in the events and in the log.
 */
@ApplicationScoped
public class OperatorService {

    private static final Logger LOG = Logger.getLogger(OperatorService.class);

    private final OperatorStore store;
    private final JobStore jobs;
    private final JobService jobService;
    private final DeadLetterService deadLetters;
    private final JobSearchService search;
    private final Telemetry telemetry;
    private final Clock clock;
    private final int batch;

    @Inject // a field: the audit note is an addition every bulk service shares, outside its constructor
    AuditLog audit;

    public OperatorService(OperatorStore store, JobStore jobs, JobService jobService, DeadLetterService deadLetters,
                           JobSearchService search, Telemetry telemetry, Clock clock, MaintenanceConfig config) {
        this.search = search;
        this.store = store;
        this.jobs = jobs;
        this.jobService = jobService;
        this.deadLetters = deadLetters;
        this.telemetry = telemetry;
        this.clock = clock;
        this.batch = config.batchSize();
    }

    /** Deletes every job completed before {@code before}, batch after batch; returns how many. */
    public Uni<Integer> deleteCompletedBefore(Instant before, String by) {
        return Batches.untilShort(() -> store.deleteCompletedBefore(before, batch), batch).invoke(n -> {
            LOG.infof("%d jobs completed before %s deleted by %s", n, before, by);
            audit.noteJobs(n);
        });
    }

    /** Retries the job as its state allows; 404 when unknown, 409 for a job that is available, active or done. */
    public Uni<JobRow> retry(UUID id, String by) {
        return jobs.find(id).flatMap(o -> {
            JobRow job = o.orElseThrow(() -> OjsException.notFound("job", id.toString()));
            if (job.deadLetter()) {
                return deadLetters.retry(id).invoke(r -> LOG.infof("dead letter %s re-enqueued by %s", id, by));
            }
            Operation op = job.state() == JobState.CANCELLED || job.state() == JobState.DISCARDED
                    ? Operation.REVIVE : Operation.RETRY_NOW;
            JobStateMachine.check(op, job.state(), id.toString());
            Instant now = OperationTime.of(clock);
            String[] from = JobStateMachine.sourceNames(op);
            return (op == Operation.REVIVE ? store.revive(id, from, now) : store.makeAvailableNow(id, from, now))
                    .map(r -> {
                        JobRow row = r.orElseThrow(() -> movedMeanwhile(id));
                        telemetry.operatorRetried(row, job.state(), by, now);
                        LOG.infof("job %s retried by %s (was %s)", id, by, job.state().wire());
                        return row;
                    });
        });
    }

    /** The outcome of a bulk retry: jobs that matched, retried, and refused (moved meanwhile, or not retryable). */
    public record BulkRetry(long matched, long succeeded, long failed) {
    }

    /** How many jobs one bulk retry visits at most; the caller narrows the filter for more. */
    public static final int MAX_BULK = 10_000;

    /**
     * Retries every job matching {@code f} (oldest first, at most {@link #MAX_BULK}) exactly as {@link #retry}
     * does one; a job that cannot be retried (available, active, completed) or moved meanwhile counts as failed.
     * Refused without {@code confirm}.
     */
    public Uni<BulkRetry> retryMatching(JobFilter f, boolean confirm, String by) {
        DeadLetterService.requireConfirm(confirm, "retry");
        return retryPage(f, null, new BulkRetry(0, 0, 0), by).invoke(r -> {
            LOG.infof("bulk retry by %s: %d matched, %d retried, %d refused", by, r.matched(), r.succeeded(),
                    r.failed());
            audit.noteJobs(r.succeeded());
        });
    }

    private Uni<BulkRetry> retryPage(JobFilter f, String after, BulkRetry sofar, String by) {
        int size = (int) Math.min(100, MAX_BULK - sofar.matched());
        if (size <= 0) {
            return Uni.createFrom().item(sofar);
        }
        return search.page(f, true, after, null, size).flatMap(page -> {
            Uni<BulkRetry> done = Uni.createFrom().item(sofar);
            for (var job : page.jobs()) {
                done = done.flatMap(r -> retry(job.id(), by).map(x -> new BulkRetry(r.matched() + 1,
                        r.succeeded() + 1, r.failed())).onFailure(OjsException.class)
                        .recoverWithItem(new BulkRetry(r.matched() + 1, r.succeeded(), r.failed() + 1)));
            }
            return page.nextCursor() == null ? done : done.flatMap(r -> retryPage(f, page.nextCursor(), r, by));
        });
    }

    public Uni<JobStore.Cancelled> cancel(UUID id, String by) {
        return jobService.cancel(id, by).invoke(c -> LOG.infof("job %s cancelled by %s", id, by));
    }

    /** Deletes the job; 404 when unknown, 409 while it is active. */
    public Uni<JobRow> delete(UUID id, String by) {
        return store.delete(id).flatMap(o -> {
            if (o.isPresent()) {
                telemetry.deleted(o.get());
                LOG.infof("job %s (%s, %s) deleted by %s", id, o.get().type(), o.get().state().wire(), by);
                return Uni.createFrom().item(o.get());
            }
            return jobs.stateOf(id).map(s -> {
                if (s.isEmpty()) {
                    throw OjsException.notFound("job", id.toString());
                }
                throw new OjsException(ErrorCode.CONFLICT, "Job '" + id + "' is active (leased to worker '"
                        + s.get().leaseOwner() + "'); cancel it first or wait for it to finish.",
                        Map.of("job_id", id.toString(), "current_state", s.get().state().wire()));
            });
        });
    }

    private static OjsException movedMeanwhile(UUID id) {
        return new OjsException(ErrorCode.CONFLICT, "Job '" + id + "' changed state while it was being retried; "
                + "reload it and try again.", Map.of("job_id", id.toString()));
    }
}
