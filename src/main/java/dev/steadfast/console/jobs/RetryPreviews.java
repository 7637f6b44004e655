package dev.steadfast.console.jobs;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.console.Format;
import dev.steadfast.console.jobs.JobDetailView.RetryPreview;
import dev.steadfast.console.jobs.JobDetailView.Step;
import dev.steadfast.domain.retry.Backoff;
import dev.steadfast.domain.retry.BackoffStrategy;
import dev.steadfast.domain.retry.RetryPolicy;
import dev.steadfast.domain.retry.ScheduleRow;
import dev.steadfast.jobs.StoredRetryPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * The effective retry policy of a job (its stored form over the spec default, {@link StoredRetryPolicy}) and its
 * delay schedule from {@link Backoff#schedule}: the same domain
 * code that decides real retries, so the preview cannot drift from the behaviour.
 */
final class RetryPreviews {

    private RetryPreviews() {
    }

    /** {@code stored}: the job row's column (StoredRetryPolicy: only what differs from the default). */
    static RetryPreview of(ObjectMapper json, String stored) {
        RetryPolicy p;
        String pretty;
        try {
            p = StoredRetryPolicy.policy(json, stored);
            pretty = json.writerWithDefaultPrettyPrinter().writeValueAsString(p.toWire());
        } catch (Exception e) {
            return new RetryPreview(stored, "The stored policy could not be read: " + e.getMessage(), List.of(), false);
        }
        List<Step> steps = new ArrayList<>();
        for (ScheduleRow r : Backoff.schedule(p)) {
            String range = r.range().min().equals(r.range().max()) ? "exactly"
                    : Format.duration(r.range().min()) + " – " + Format.duration(r.range().max());
            steps.add(new Step(r.attempt(), Format.duration(r.delay()), range));
        }
        String from = p.strategy() == BackoffStrategy.CUSTOM
                ? "custom delays " + String.join(", ", p.intervals().stream().map(Format::duration).toList())
                : p.strategy().wireName() + " backoff from " + Format.duration(p.initialInterval());
        String summary = from
                + (p.strategy().wireName().equals("exponential") ? " (×" + p.backoffCoefficient() + ")" : "")
                + ", at most " + Format.duration(p.maxInterval()) + (p.jitter() ? ", with jitter ×0.5–1.5" : ", no jitter")
                + "; " + p.maxAttempts() + (p.maxAttempts() == 1 ? " attempt" : " attempts") + ", then " + p.onExhaustion().wireName().replace('_', ' ')
                + (p.nonRetryableErrors().isEmpty() ? "" : "; never retried: " + String.join(", ", p.nonRetryableErrors()))
                + ".";
        return new RetryPreview(pretty, summary, steps, p.maxAttempts() - 1 > Backoff.MAX_SCHEDULE_ROWS);
    }
}
