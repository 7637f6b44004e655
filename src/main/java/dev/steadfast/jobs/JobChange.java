package dev.steadfast.jobs;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * A job envelope after an operator's or producer's action, with what the action adds after the envelope:
 * {@code previous_state} (cancel), {@code activated_at} (activate), {@code re_enqueued_at} (dead-letter retry).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobChange(@JsonUnwrapped JobView job, String previousState, String activatedAt,
                        String reEnqueuedAt) {

    public static JobChange cancelled(JobView job, String previousState) {
        return new JobChange(job, previousState, null, null);
    }

    public static JobChange activated(JobView job) {
        return new JobChange(job, "pending", job.enqueuedAt(), null);
    }

    public static JobChange reEnqueued(JobView job, String at) {
        return new JobChange(job, null, null, at);
    }
}
