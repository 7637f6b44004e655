package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A job about to be inserted, with every value already validated and every JSON value already serialized.
 *
 * @param runAt when the job may first be claimed; null for pending jobs
 * @param enqueuedAt when it became available; null while scheduled or pending
 * @param uniqueKey  the uniqueness key (ojs-unique-jobs.md 4), or null for a job without a unique policy
 * @param clientId   whether the client chose the id (then a finished job may hold it already; the server's own ids
 *                   are new UUIDv7s)
 * @param rateLimitKey the job's rate limit key (ojs-rate-limiting.md 6), or null for a job without one
 */
public record NewJob(UUID id, String type, String queue, String argsJson, String metaJson, String extensionsJson,
                     int priority, List<String> tags, JobState state, int maxAttempts, String retryPolicyJson,
                     Long timeoutMs, long visibilityTimeoutMs, Instant runAt, Instant scheduledAt,
                     Instant expiresAt, Instant createdAt, Instant enqueuedAt, String uniqueKey,
                     boolean clientId, String rateLimitKey) {
}
