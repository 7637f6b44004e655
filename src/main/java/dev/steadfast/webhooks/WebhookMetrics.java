package dev.steadfast.webhooks;

import dev.steadfast.domain.webhook.DeliveryDecision.Kind;
import dev.steadfast.domain.webhook.DeliveryDecision.Outcome;
import dev.steadfast.events.EventData;
import dev.steadfast.events.EventLog;
import dev.steadfast.http.Timestamps;
import dev.steadfast.store.webhooks.ClaimedDelivery;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;

/**
 * What webhooks report (ojs-webhooks 11): per attempt, an event ({@code webhook.delivered}, {@code webhook.failed}
 * while it will be retried, {@code webhook.dead}) and the metrics, on /q/metrics in Prometheus form:
 * <ul>
 *   <li>{@code ojs_webhook_delivery_count_total{event_type, status}}: attempts by outcome (success, failed,
 *       dead);</li>
 *   <li>{@code ojs_webhook_delivery_duration_seconds{event_type, subscription_id}}: the HTTP request's time (the spec's
 *       {@code duration_ms} histogram, in Micrometer's base unit);</li>
 *   <li>{@code ojs_webhook_delivery_retry_count{event_type}}: retries before success;</li>
 *   <li>{@code ojs_webhook_dead_delivery_count_total{event_type, subscription_id}};</li>
 *   <li>{@code ojs_webhook_subscription_count}: active subscriptions, as this instance last read them.</li>
 * </ul>
 */
@ApplicationScoped
class WebhookMetrics {

    private final MeterRegistry meters;
    private final EventLog events;

    public WebhookMetrics(MeterRegistry meters, EventLog events, WebhookFanout fanout) {
        this.meters = meters;
        this.events = events;
        Gauge.builder("ojs.webhook.subscription.count", fanout, WebhookFanout::activeCount)
                .description("Active webhook subscriptions").register(meters);
    }

    void attempt(ClaimedDelivery d, Outcome o, WebhookSender.Sent sent, String error, Instant at) {
        String status = switch (o.kind()) {
            case DELIVERED -> "success";
            case DEAD -> "dead";
            case RETRY -> "failed";
        };
        Counter.builder("ojs.webhook.delivery.count").tag("event_type", d.eventType()).tag("status", status)
                .register(meters).increment();
        Timer.builder("ojs.webhook.delivery.duration").tag("event_type", d.eventType())
                .tag("subscription_id", d.subscriptionId()).register(meters)
                .record(Duration.ofMillis(sent.durationMs()));
        Integer code = sent.status() != 0 ? sent.status() : null;
        if (o.kind() == Kind.DELIVERED) {
            DistributionSummary.builder("ojs.webhook.delivery.retry_count").tag("event_type", d.eventType())
                    .register(meters).record(d.attempt() - 1);
            events.emitAbout("webhook.delivered", at, d.id(), new EventData.WebhookDelivered(d.id(),
                    d.subscriptionId(), d.eventType(), d.attempt(), code, sent.durationMs()));
            return;
        }
        if (o.kind() == Kind.RETRY) {
            events.emitAbout("webhook.failed", at, d.id(), new EventData.WebhookFailed(d.id(), d.subscriptionId(),
                    d.eventType(), d.attempt(), code, sent.durationMs(), error,
                    Timestamps.format(o.nextAttemptAt())));
            return;
        }
        Counter.builder("ojs.webhook.dead_delivery.count").tag("event_type", d.eventType())
                .tag("subscription_id", d.subscriptionId()).register(meters).increment();
        events.emitAbout("webhook.dead", at, d.id(), new EventData.WebhookFailed(d.id(), d.subscriptionId(),
                d.eventType(), d.attempt(), code, sent.durationMs(), error, null));
    }

    void subscriptionCreated(String id, String url, Instant at) {
        events.emitAbout("webhook.subscription.created", at, id, new EventData.SubscriptionCreated(id, url));
    }

    void subscriptionDeleted(String id, Instant at) {
        events.emitAbout("webhook.subscription.deleted", at, id, new EventData.SubscriptionDeleted(id));
    }
}
