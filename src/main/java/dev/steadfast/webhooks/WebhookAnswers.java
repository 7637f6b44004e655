package dev.steadfast.webhooks;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.Timestamps;
import dev.steadfast.model.SubscriptionRow;
import dev.steadfast.store.webhooks.DeliveryRow;
import java.util.List;

/** The wire shapes of the webhooks API (ojs-webhooks 5.1, 6 and 10). */
final class WebhookAnswers {

    private WebhookAnswers() {
    }

    /** {@code {"subscription": {...}}}: every answer about one subscription. */
    record One(Subscription subscription) {
    }

    /** A page of subscriptions in creation order; {@code next_cursor} is null on the last page. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Many(List<Subscription> subscriptions, @JsonInclude(JsonInclude.Include.ALWAYS) String nextCursor) {
    }

    /**
     * A subscription. {@code secret} only in the answers that set it (create, rotate-secret: ojs-webhooks 6.1,
     * shown once); {@code filter} only when it filters; {@code previous_secret_expires_at} while a rotated-out
     * secret still signs.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Subscription(String id, String url, List<String> events, Filter filter, boolean active,
                        @JsonRawValue String metadata, long timeoutMs, String tenantId, String secret,
                        String previousSecretExpiresAt, String createdAt, String updatedAt) {

        static Subscription of(SubscriptionRow r, String secret) {
            Filter f = r.queues().isEmpty() && r.jobTypes().isEmpty() ? null
                    : new Filter(r.queues().isEmpty() ? null : r.queues(), r.jobTypes().isEmpty() ? null : r.jobTypes());
            return new Subscription(r.id(), r.url(), r.events(), f, r.active(), r.metadata(), r.timeoutMs(),
                    r.tenantId(), secret,
                    r.previousSecretUntil() == null ? null : Timestamps.format(r.previousSecretUntil()),
                    Timestamps.format(r.createdAt()), Timestamps.format(r.updatedAt()));
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Filter(List<String> queues, List<String> jobTypes) {
    }

    /** {@code {"deleted": true, "id": ...}}. */
    record Deleted(boolean deleted, String id) {
    }

    /** The test delivery's result (ojs-webhooks 6.6). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TestResult(boolean success, Integer statusCode, long responseTimeMs, String responseBody, String error,
                      String deliveryId) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Deliveries(List<Delivery> deliveries, @JsonInclude(JsonInclude.Include.ALWAYS) String nextCursor) {
    }

    record OneDelivery(Delivery delivery) {
    }

    /** A delivery; {@code event} (the body sent, as JSON) only when one delivery is asked for. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Delivery(String id, String subscriptionId, String eventId, String eventType, String subject, String state,
                    int attempts, String nextAttemptAt, Integer lastStatusCode, String lastError,
                    Integer lastDurationMs, String lastAttemptAt, String createdAt, String finishedAt,
                    @JsonRawValue String event) {

        static Delivery of(DeliveryRow d, boolean withEvent) {
            return new Delivery(d.id(), d.subscriptionId(), d.eventId(), d.eventType(), d.subject(), d.state(),
                    d.attempts(), d.state().equals("pending") ? Timestamps.format(d.nextAttemptAt()) : null,
                    d.lastStatus(), d.lastError(), d.lastDurationMs(),
                    d.lastAttemptAt() == null ? null : Timestamps.format(d.lastAttemptAt()),
                    Timestamps.format(d.createdAt()),
                    d.finishedAt() == null ? null : Timestamps.format(d.finishedAt()), withEvent ? d.body() : null);
        }
    }
}
