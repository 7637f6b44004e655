package dev.steadfast.jobs;

import dev.steadfast.domain.limits.QueueLimits;
import dev.steadfast.domain.limits.RateLimitPolicy;
import dev.steadfast.domain.unique.UniquePolicy;
import dev.steadfast.schemas.SchemaSubject;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A validated PUSH request: field shapes are checked by the API layer, value rules by the service.
 *
 * @param id         the client's id, or null to have one generated
 * @param retry      the job's partial retry policy as parsed JSON, or null
 * @param timeoutMs  null for the configured default
 * @param visibilityTimeoutMs null for the configured default
 * @param scheduledAt null to run now
 * @param unique      the job's deduplication policy, or null
 * @param queueLimits limits the PUSH sets on its queue (the binding's {@code rate_limit} option), or null
 * @param rateLimit   the job's rate limit key and the limits the PUSH sets on it (ojs-rate-limiting.md 6), or null
 * @param tenantId    the job's tenant (its meta.tenant_id, as the parser checked and wrote it), or null for none: read
 *                    once, so admission never parses the meta again
 */
public record EnqueueCommand(String id, String type, String queue, String argsJson, String metaJson,
                             String extensionsJson, Integer priority, List<String> tags, Long timeoutMs,
                             Long visibilityTimeoutMs, Instant scheduledAt, Instant expiresAt, boolean pending,
                             Map<String, Object> retry, UniquePolicy unique, QueueLimits queueLimits,
                             RateLimitPolicy rateLimit, String tenantId) implements SchemaSubject {
}
