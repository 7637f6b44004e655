package dev.steadfast.store.webhooks;

import dev.steadfast.store.JobRows;
import io.vertx.mutiny.sqlclient.Row;
import java.time.Instant;

/** A delivery this instance leased for one attempt, with what sending it needs (the URL, the secrets). */
public record ClaimedDelivery(String id, String subscriptionId, String eventType, String body, int attempt,
                              String url, String secret, String previousSecret, Instant previousSecretUntil,
                              int timeoutMs) {

    static ClaimedDelivery from(Row r) {
        return new ClaimedDelivery(r.getString("id"), r.getString("subscription_id"), r.getString("event_type"),
                r.getString("body"), r.getInteger("attempts"), r.getString("url"), r.getString("secret"),
                r.getString("previous_secret"), JobRows.instant(r, "previous_secret_until"),
                r.getInteger("timeout_ms"));
    }
}
