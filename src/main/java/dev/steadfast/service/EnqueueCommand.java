package dev.steadfast.service;

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
 */
public record EnqueueCommand(String id, String type, String queue, String argsJson, String metaJson,
                             String extensionsJson, Integer priority, List<String> tags, Long timeoutMs,
                             Long visibilityTimeoutMs, Instant scheduledAt, Instant expiresAt, boolean pending,
                             Map<String, Object> retry) {
}
