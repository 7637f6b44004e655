package dev.steadfast.model;

import dev.steadfast.domain.JobState;
import java.time.Instant;

/** A job's state, lease owner and when the lease runs out. */
public record StateAndOwner(JobState state, String leaseOwner, Instant leaseExpiresAt) {
}
