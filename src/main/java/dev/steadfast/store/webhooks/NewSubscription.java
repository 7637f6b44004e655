package dev.steadfast.store.webhooks;

import java.util.List;

/** A subscription to insert: its id, tenant (null: the whole server), target, filter, secret and settings. */
public record NewSubscription(String id, String tenantId, String url, List<String> events, List<String> queues,
                              List<String> jobTypes, boolean active, String secret, String metadata, int timeoutMs) {
}
