package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import java.time.Instant;
import java.util.UUID;

/**
 * What deciding a failed attempt needs to know about a job: which attempt of which run it is in, how many
 * attempts were snoozes, who holds the lease until when, and the job's effective retry policy (JSON).
 */
public record Attempt(UUID id, String type, String queue, JobState state, int attempt, int snoozes, int run,
                      String leaseOwner, Instant leaseExpiresAt, String retryPolicyJson) {

    /** The attempt of a job row (a claimed or locked one). */
    public static Attempt of(JobRow j) {
        return new Attempt(j.id(), j.type(), j.queue(), j.state(), j.attempt(), j.snoozes(), j.run(), j.leaseOwner(),
                j.leaseExpiresAt(), j.retryPolicyJson());
    }
}
