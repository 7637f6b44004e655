package dev.steadfast.store.webhooks;

import java.util.List;

/** What the fan-out needs of an active subscription: its id, tenant and filter. */
public record ActiveSubscription(String id, String tenantId, List<String> events, List<String> queues,
                                 List<String> jobTypes) {
}
