package dev.steadfast.model;

import dev.steadfast.domain.JobState;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One job as the store reads it (store.JobRows: its columns and its reading). JSON columns stay JSON text: the API
 * writes them out verbatim, so a job's args are never re-encoded on the way through the server. {@code retryPolicyJson}
 * is the column as stored: only what differs from the spec default, {@code {}} for the default
 * (jobs.StoredRetryPolicy expands it).
 */
public record JobRow(UUID id, String type, String queue, String argsJson, String metaJson, String extensionsJson,
                     int priority, List<String> tags, JobState state, int attempt, int snoozes, int maxAttempts,
                     String retryPolicyJson, String errorJson, String errorsJson, int run, String resultJson,
                     Long timeoutMs, long visibilityTimeoutMs, Instant runAt, Instant scheduledAt,
                     Instant expiresAt, Long retryDelayMs, boolean deadLetter, Instant createdAt,
                     Instant enqueuedAt, Instant startedAt, Instant completedAt, Instant cancelledAt,
                     Instant discardedAt, String leaseOwner, Instant leaseExpiresAt, Instant executionDeadline,
                     Instant leaseRenewedAt, UUID workflowId, boolean checkpointed) {
}
