package dev.steadfast.console.tools;

import dev.steadfast.console.Format;
import dev.steadfast.domain.retry.Backoff;
import dev.steadfast.domain.retry.BackoffStrategy;
import dev.steadfast.domain.retry.RetryPolicy;
import dev.steadfast.domain.retry.ScheduleRow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The retry simulator's page: the policy as typed, the effective policy in words and its schedule from
 * {@link Backoff#schedule} (the rule real retries follow), with each delay's jitter range and the time since the
 * first attempt failed, or the message of a refused policy.
 */
public record RetrySimulation(String policy, String queue, String type, String error, String summary,
                              String effective, List<Step> steps, boolean truncated) {

    /** The wait before one attempt: the delay before jitter, where the jittered delay falls, and the total so far. */
    public record Step(int attempt, String delay, String range, String elapsed) {
    }

    /** What the empty text box suggests. */
    public String example() {
        return "{\"max_attempts\": 5, \"initial_interval\": \"PT2S\", \"backoff_coefficient\": 2.0,"
                + " \"max_interval\": \"PT5M\", \"jitter\": true}";
    }

    static RetrySimulation empty(String policy, String queue, String type, String error) {
        return new RetrySimulation(policy, queue, type, error, null, null, List.of(), false);
    }

    static RetrySimulation of(String policy, String queue, String type, RetryPolicy p, String effective) {
        List<Step> steps = new ArrayList<>();
        Duration low = Duration.ZERO;
        Duration high = Duration.ZERO;
        for (ScheduleRow r : Backoff.schedule(p)) {
            String range = r.range().min().equals(r.range().max()) ? "exactly " + Format.duration(r.delay())
                    : Format.duration(r.range().min()) + " – " + Format.duration(r.range().max());
            String elapsed;
            try {
                low = low.plus(r.range().min());
                high = high.plus(r.range().max());
                elapsed = low.equals(high) ? Format.duration(low) : Format.duration(low) + " – " + Format.duration(high);
            } catch (ArithmeticException e) {
                elapsed = "—";
            }
            steps.add(new Step(r.attempt(), Format.duration(r.delay()), range, elapsed));
        }
        return new RetrySimulation(policy, queue, type, null, summary(p), effective, steps,
                p.maxAttempts() - 1 > Backoff.MAX_SCHEDULE_ROWS);
    }

    static String summary(RetryPolicy p) {
        String from = p.strategy() == BackoffStrategy.CUSTOM
                ? "custom delays " + String.join(", ", p.intervals().stream().map(Format::duration).toList())
                : p.strategy().wireName() + " backoff from " + Format.duration(p.initialInterval())
                        + (p.strategy() == BackoffStrategy.EXPONENTIAL ? " (×" + p.backoffCoefficient() + ")" : "");
        return from + ", at most " + Format.duration(p.maxInterval())
                + (p.jitter() ? ", with jitter ×0.5–1.5" : ", no jitter") + "; " + p.maxAttempts()
                + (p.maxAttempts() == 1 ? " attempt" : " attempts") + ", then "
                + p.onExhaustion().wireName().replace('_', ' ')
                + (p.nonRetryableErrors().isEmpty() ? "" : "; never retried: " + String.join(", ", p.nonRetryableErrors()))
                + ".";
    }
}
