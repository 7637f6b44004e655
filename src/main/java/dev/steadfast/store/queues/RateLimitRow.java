package dev.steadfast.store.queues;

import dev.steadfast.domain.limits.PartitionState;
import dev.steadfast.domain.limits.RateLimitPolicy;

/**
 * One rate limit partition as stored: its key's limits, what its window and throttle remember, and its jobs that
 * are active and waiting (available) right now.
 */
public record RateLimitRow(RateLimitPolicy policy, PartitionState state, long active, long waiting) {
}
