package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import dev.steadfast.model.JobRow;
import java.time.Instant;
import java.util.UUID;

/**
 * What deciding a failed attempt needs to know about a job: which attempt of which run it is in, how many
 * attempts were snoozes, who holds the lease until when, the job's retry policy as its row stores it (jobs.StoredRetryPolicy), and the workflow
 * it is a step of (null for a plain job), which decides where its ACK and FAIL are written.
 */
public record Attempt(UUID id, String type, String queue, JobState state, int attempt, int snoozes, int run,
                      String leaseOwner, Instant leaseExpiresAt, String retryPolicyJson, UUID workflowId) {

    /** The attempt of a job row (a claimed or locked one). */
    public static Attempt of(JobRow j) {
        return new Attempt(j.id(), j.type(), j.queue(), j.state(), j.attempt(), j.snoozes(), j.run(), j.leaseOwner(),
                j.leaseExpiresAt(), j.retryPolicyJson(), j.workflowId());
    }

    /** Whether the job is a workflow step, whose ACK and FAIL are written in its workflow's transaction. */
    public boolean workflowStep() {
        return workflowId != null;
    }
}
