package dev.steadfast.console.webhooks;

import dev.steadfast.console.Format;
import dev.steadfast.model.SubscriptionRow;
import dev.steadfast.store.webhooks.DeliveryRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** What the webhooks pages show, loaded before rendering: subscriptions with their counts, and deliveries. */
public record WebhooksView(List<Subscription> subscriptions) {

    /** A subscription's line: its target, filter, switch and how many of its deliveries are in each state. */
    public record Subscription(String id, String href, String url, String events, String filter, boolean active,
                               String tenant, long pending, long delivered, long dead, String created) {

        static Subscription of(SubscriptionRow r, Map<String, Long> counts) {
            String filter = (r.queues().isEmpty() ? "" : "queues " + String.join(", ", r.queues()))
                    + (r.queues().isEmpty() || r.jobTypes().isEmpty() ? "" : " · ")
                    + (r.jobTypes().isEmpty() ? "" : "job types " + String.join(", ", r.jobTypes()));
            Map<String, Long> c = counts == null ? Map.of() : counts;
            return new Subscription(r.id(), "/admin/webhooks/" + r.id(), r.url(), String.join(", ", r.events()),
                    filter.isEmpty() ? "none" : filter, r.active(), r.tenantId() == null ? "" : r.tenantId(),
                    c.getOrDefault("pending", 0L), c.getOrDefault("delivered", 0L), c.getOrDefault("dead", 0L),
                    Format.time(r.createdAt()));
        }
    }

    /** A delivery's line: its last attempt, what comes next, and whether retry now applies. */
    public record Delivery(String id, String eventType, String subject, String state, int attempts, String lastStatus,
                           String lastError, String lastAttempt, String lastAttemptAgo, String next, boolean canRetry) {

        static Delivery of(DeliveryRow d, Instant now) {
            boolean sending = d.state().equals("pending") && d.leaseOwner() != null;
            String next = switch (d.state()) {
                case "pending" -> sending ? "being sent" : Format.relative(d.nextAttemptAt(), now);
                case "delivered" -> "delivered " + Format.relative(d.finishedAt(), now);
                default -> "dead " + Format.relative(d.finishedAt(), now);
            };
            return new Delivery(d.id(), d.eventType(), d.subject() == null ? "" : d.subject(), d.state(),
                    d.attempts(), d.lastStatus() == null ? "" : d.lastStatus().toString(),
                    d.lastError() == null ? "" : d.lastError(),
                    d.lastAttemptAt() == null ? "" : Format.time(d.lastAttemptAt()),
                    d.lastAttemptAt() == null ? "not yet" : Format.relative(d.lastAttemptAt(), now), next, !sending);
        }
    }

    /** One subscription's page: its line and its latest deliveries. */
    public record Detail(Subscription subscription, List<Delivery> deliveries) {
    }
}
