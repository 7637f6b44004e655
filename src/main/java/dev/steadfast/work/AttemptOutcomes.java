package dev.steadfast.work;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.FailureReport;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.errors.ErrorGroupKey;
import dev.steadfast.domain.retry.ErrorEntry;
import dev.steadfast.domain.retry.ErrorHistory;
import dev.steadfast.domain.retry.Failure;
import dev.steadfast.domain.retry.FailureDecision;
import dev.steadfast.domain.retry.HandlerCode;
import dev.steadfast.domain.retry.RetryDecider;
import dev.steadfast.domain.retry.RetryPolicy;
import dev.steadfast.http.Json;
import dev.steadfast.jobs.ErrorHistoryJson;
import dev.steadfast.jobs.StoredRetryPolicy;
import dev.steadfast.store.Attempt;
import dev.steadfast.store.FailureWrite;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Turns one failed attempt into the write that records it: the error appended to the history (tagged with the
 * run), and the retry engine's decision applied: retry after the backoff, discard, or dead-letter; the failure is
 * counted in its error group (type and normalised message, {@link ErrorGroupKey}). Shared by a
 * worker's FAIL and the lease reaper, so both follow the job's retry policy in exactly the same way.
 *
 * <p>Jitter draws from {@link ThreadLocalRandom} (per thread, no lock, nothing looked up by name, so it works the
 * same in a native image); the domain takes the generator as an input, so its tests stay seeded.
 */
@ApplicationScoped
class AttemptOutcomes {

    private final ErrorsConfig config;
    private final ObjectMapper json;

    public AttemptOutcomes(ErrorsConfig config, ObjectMapper json) {
        this.config = config;
        this.json = json;
    }

    /**
     * @param workerId    the worker that reported the failure (null for the lease reaper or an anonymous worker)
     * @param backoffFrom the instant the backoff is measured from: now for a reported failure, the worker's last
     *                    sign of life for a lease that ran out (the attempt failed no earlier than that)
     */
    public FailureWrite failed(Attempt a, FailureReport r, Failure f, Map<String, Object> details,
                               List<String> backtrace, String workerId, Instant now, Instant backoffFrom) {
        RetryPolicy policy = StoredRetryPolicy.policy(json, a.retryPolicyJson());
        FailureDecision d = RetryDecider.decide(policy, a.attempt() - a.snoozes(), f, backoffFrom,
                ThreadLocalRandom.current());
        ErrorEntry entry = new ErrorEntry(a.run(), a.attempt(), r.type(), r.code(), r.message(), now, details,
                ErrorHistoryJson.backtrace(backtrace, config.backtraceMaxFrames(),
                        config.backtraceMaxChars()));
        String error = Json.write(json, ErrorHistoryJson.entry(json, entry, r.retryable(),
                r.handlerCode().map(HandlerCode::name).orElse(null)));
        ErrorGroupKey group = ErrorGroupKey.of(r.type(), r.message());
        if (d instanceof FailureDecision.Retry retry) {
            // A crashed worker's job whose backoff already passed is available at once, in its FIFO place
            // (run_at = when it became due); a reported failure is always retryable first (OJS: active -> retryable).
            boolean dueNow = !backoffFrom.equals(now) && !retry.at().isAfter(now);
            return new FailureWrite(a.id(), a.attempt(), workerId, dueNow ? JobState.AVAILABLE : JobState.RETRYABLE,
                    retry.at(), retry.delay().toMillis(), error, false, now, group);
        }
        boolean deadLetter = d instanceof FailureDecision.DeadLetter;
        return new FailureWrite(a.id(), a.attempt(), workerId, JobState.DISCARDED, null, null, error, deadLetter, now,
                group);
    }

    /** How many error history entries each job keeps (configuration, never below the spec's floor). */
    public int historyKept() {
        return ErrorHistory.kept(config.historySize());
    }
}
