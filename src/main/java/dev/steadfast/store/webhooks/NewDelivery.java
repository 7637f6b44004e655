package dev.steadfast.store.webhooks;

/** A delivery to write: its id, the subscription, and the event it carries (the body is the text sent). */
public record NewDelivery(String id, String subscriptionId, String eventId, String eventType, String subject,
                          String body) {
}
