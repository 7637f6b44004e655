package dev.steadfast.store.webhooks;

import java.util.List;

/** A PATCH of a subscription: each field null when it is left as it is. */
public record SubscriptionChange(String url, List<String> events, List<String> queues, List<String> jobTypes,
                                 Boolean active, String metadata, Integer timeoutMs) {
}
