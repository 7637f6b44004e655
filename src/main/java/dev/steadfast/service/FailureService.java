package dev.steadfast.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.config.SteadfastConfig;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.FailureReport;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.retry.ErrorEntry;
import dev.steadfast.domain.retry.Failure;
import dev.steadfast.domain.retry.FailureDecision;
import dev.steadfast.domain.retry.HandlerCode;
import dev.steadfast.domain.retry.RetryDecider;
import dev.steadfast.domain.retry.RetryPolicy;
import dev.steadfast.store.FailureWrite;
import dev.steadfast.store.JobRow;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * FAIL (nack): records the error in the job's history and applies the retry engine's decision (retry with
 * backoff, discard, or dead-letter) in one transaction on the locked job. A {@code requeue} hands the job back
 * as available without counting a failed attempt.
 */
@ApplicationScoped
public class FailureService {

    private final JobStore store;
    private final Clock clock;
    private final SteadfastConfig config;
    private final EventLog events;
    private final ObjectMapper json;
    private final RandomGenerator random = RandomGenerator.of("L64X128MixRandom");

    public FailureService(JobStore store, Clock clock, SteadfastConfig config, EventLog events, ObjectMapper json) {
        this.store = store;
        this.clock = clock;
        this.config = config;
        this.events = events;
        this.json = json;
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
        if (c.requeue()) {
            return new FailureWrite(JobState.AVAILABLE, now, null, row.errorJson(), row.errorsJson(), false,
                    row.snoozes() + 1, now);
        }
        FailureReport r = c.report();
        RetryPolicy policy = RetryPolicy.merge(RetryPolicy.DEFAULT, ErrorHistoryJson.readMap(json, row.retryPolicyJson()));
        Failure failure = new Failure(r.type(), r.handlerCode().orElse(null), r.retryable(), false);
        FailureDecision d = RetryDecider.decide(policy, row.attempt() - row.snoozes(), failure, now, random);
        ErrorEntry entry = new ErrorEntry(row.run(), row.attempt(), r.type(), r.code(), r.message(), now, c.details(),
                ErrorHistoryJson.backtrace(c.backtrace(), config.errors().backtraceMaxFrames(),
                        config.errors().backtraceMaxChars()));
        ObjectNode node = ErrorHistoryJson.entry(json, entry, r.retryable(),
                r.handlerCode().map(HandlerCode::name).orElse(null));
        String errors = ErrorHistoryJson.append(json, row.errorsJson(), node, config.errors().historySize());
        String error = ErrorHistoryJson.write(json, node);
        if (d instanceof FailureDecision.Retry retry) {
            return new FailureWrite(JobState.RETRYABLE, retry.at(), retry.delay().toMillis(), error, errors, false,
                    row.snoozes(), now);
        }
        boolean deadLetter = d instanceof FailureDecision.DeadLetter;
        return new FailureWrite(JobState.DISCARDED, null, null, error, errors, deadLetter, row.snoozes(), now);
    }

    private void emit(JobRow row, FailCommand c, Instant now) {
        String id = row.id().toString();
        if (row.state() == JobState.AVAILABLE) {
            events.emit("job.requeued", now, id, row.type(), row.queue(), Map.of("attempt", row.attempt()));
            return;
        }
        Map<String, Object> err = new LinkedHashMap<>();
        err.put("code", c.report().code());
        err.put("type", c.report().type());
        err.put("message", c.report().message());
        err.put("retryable", row.state() == JobState.RETRYABLE);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("attempt", row.attempt());
        data.put("error", err);
        events.emit("job.failed", now, id, row.type(), row.queue(), data);
        if (row.state() == JobState.RETRYABLE) {
            Map<String, Object> r = new LinkedHashMap<>(data);
            r.put("max_attempts", row.maxAttempts());
            r.put("next_retry_at", Timestamps.format(row.runAt()));
            events.emit("job.retrying", now, id, row.type(), row.queue(), r);
        } else {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("total_attempts", row.attempt());
            r.put("last_error", err);
            r.put("dead_letter", row.deadLetter());
            events.emit("job.discarded", now, id, row.type(), row.queue(), r);
        }
    }
}
