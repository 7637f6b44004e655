package dev.steadfast.store.webhooks;

import java.time.Instant;

/**
 * An attempt's outcome to write: the delivery, the lease (owner and attempt) it was sent under, the new state
 * ({@code pending} with its next time, {@code delivered} or {@code dead}) and what the attempt saw.
 */
public record AttemptRecord(String id, String owner, int attempt, String state, Instant nextAttemptAt,
                            Integer status, String error, int durationMs, Instant at) {
}
