package dev.steadfast.service;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.FailureReport;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.retry.Failure;
import dev.steadfast.store.FailureWrite;
import dev.steadfast.store.JobRow;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * FAIL (nack): records the error in the job's history and applies the retry engine's decision (retry with
 * backoff, discard, or dead-letter) in one transaction on the locked job.
 */
@ApplicationScoped
public class FailureService {

    private final JobStore store;
    private final Clock clock;
    private final AttemptOutcomes outcomes;
    private final Telemetry telemetry;

    public FailureService(JobStore store, Clock clock, AttemptOutcomes outcomes, Telemetry telemetry) {
        this.store = store;
        this.clock = clock;
        this.outcomes = outcomes;
        this.telemetry = telemetry;
    }

    public Uni<JobRow> fail(FailCommand c) {
        Instant now = JobService.now(clock);
        return store.fail(c.jobId(), row -> decide(row, c, now))
                .map(o -> o.orElseThrow(() -> OjsException.notFound("job", c.jobId().toString())))
                .invoke(row -> emit(row, c, now));
    }

    private FailureWrite decide(JobRow row, FailCommand c, Instant now) {
        JobStateMachine.check(Operation.FAIL, row.state(), row.id().toString());
        if (c.workerId() != null && row.leaseOwner() != null && !c.workerId().equals(row.leaseOwner())) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("job_id", row.id().toString());
            d.put("lease_owner", row.leaseOwner());
            throw new OjsException(ErrorCode.CONFLICT, "The job's lease is held by worker '" + row.leaseOwner()
                    + "', not by '" + c.workerId() + "'.", d);
        }
        FailureReport r = c.report();
        Failure failure = new Failure(r.type(), r.handlerCode().orElse(null), r.retryable(), false);
        return outcomes.failed(row, r, failure, c.details(), c.backtrace(), now, now);
    }

    private void emit(JobRow row, FailCommand c, Instant now) {
        telemetry.failed(row, c.report(), now);
    }
}
