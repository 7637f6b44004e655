package dev.steadfast.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.config.SteadfastConfig;
import dev.steadfast.domain.FailureReport;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.retry.ErrorEntry;
import dev.steadfast.domain.retry.Failure;
import dev.steadfast.domain.retry.FailureDecision;
import dev.steadfast.domain.retry.HandlerCode;
import dev.steadfast.domain.retry.RetryDecider;
import dev.steadfast.domain.retry.RetryPolicy;
import dev.steadfast.store.FailureWrite;
import dev.steadfast.store.JobRow;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Turns one failed attempt into the write that records it: the error appended to the history (tagged with the
 * run), and the retry engine's decision applied: retry after the backoff, discard, or dead-letter. Shared by a
 * worker's FAIL and the lease reaper, so both follow the job's retry policy in exactly the same way.
 *
 * <p>Jitter draws from {@link ThreadLocalRandom} (per thread, no lock, nothing looked up by name, so it works the
 * same in a native image); the domain takes the generator as an input, so its tests stay seeded.
 */
@ApplicationScoped
public class AttemptOutcomes {

    private final SteadfastConfig config;
    private final ObjectMapper json;

    public AttemptOutcomes(SteadfastConfig config, ObjectMapper json) {
        this.config = config;
        this.json = json;
    }

    /**
     * @param backoffFrom the instant the backoff is measured from: now for a reported failure, the worker's last
     *                    sign of life for a lease that ran out (the attempt failed no earlier than that)
     */
    public FailureWrite failed(JobRow row, FailureReport r, Failure f, Map<String, Object> details,
                               List<String> backtrace, Instant now, Instant backoffFrom) {
        RetryPolicy policy = RetryPolicy.merge(RetryPolicy.DEFAULT, Json.readMap(json, row.retryPolicyJson()));
        FailureDecision d = RetryDecider.decide(policy, row.attempt() - row.snoozes(), f, backoffFrom,
                ThreadLocalRandom.current());
        ErrorEntry entry = new ErrorEntry(row.run(), row.attempt(), r.type(), r.code(), r.message(), now, details,
                ErrorHistoryJson.backtrace(backtrace, config.errors().backtraceMaxFrames(),
                        config.errors().backtraceMaxChars()));
        ObjectNode node = ErrorHistoryJson.entry(json, entry, r.retryable(),
                r.handlerCode().map(HandlerCode::name).orElse(null));
        String errors = ErrorHistoryJson.append(json, row.errorsJson(), node, config.errors().historySize());
        String error = Json.write(json, node);
        if (d instanceof FailureDecision.Retry retry) {
            // A crashed worker's job whose backoff already passed is available at once, in its FIFO place
            // (run_at = when it became due); a reported failure is always retryable first (OJS: active -> retryable).
            boolean dueNow = !backoffFrom.equals(now) && !retry.at().isAfter(now);
            return new FailureWrite(dueNow ? JobState.AVAILABLE : JobState.RETRYABLE, retry.at(),
                    retry.delay().toMillis(), error, errors, false, row.snoozes(), now);
        }
        boolean deadLetter = d instanceof FailureDecision.DeadLetter;
        return new FailureWrite(JobState.DISCARDED, null, null, error, errors, deadLetter, row.snoozes(), now);
    }
}
