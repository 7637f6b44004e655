package dev.steadfast.model;

import java.time.Instant;
import java.util.List;

/** A webhook subscription as stored (V34); {@code metadata} is its JSON text. */
public record SubscriptionRow(String id, String tenantId, String url, List<String> events, List<String> queues,
                              List<String> jobTypes, boolean active, String secret, String previousSecret,
                              Instant previousSecretUntil, String metadata, int timeoutMs, Instant createdAt,
                              Instant updatedAt) {
}
