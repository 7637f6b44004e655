package dev.steadfast.store.webhooks;

import dev.steadfast.store.JobRows;
import io.vertx.mutiny.sqlclient.Row;
import java.time.Instant;

/** A webhook delivery as stored (V34): the event it carries, its state and its last attempt. */
public record DeliveryRow(String id, String subscriptionId, String eventId, String eventType, String subject,
                          String body, String state, int attempts, Instant nextAttemptAt, String leaseOwner,
                          Integer lastStatus, String lastError, Integer lastDurationMs, Instant lastAttemptAt,
                          Instant createdAt, Instant finishedAt) {

    static DeliveryRow from(Row r) {
        return new DeliveryRow(r.getString("id"), r.getString("subscription_id"), r.getString("event_id"),
                r.getString("event_type"), r.getString("subject"), r.getString("body"), r.getString("state"),
                r.getInteger("attempts"), JobRows.instant(r, "next_attempt_at"), r.getString("lease_owner"),
                r.getInteger("last_status"), r.getString("last_error"), r.getInteger("last_duration_ms"),
                JobRows.instant(r, "last_attempt_at"), JobRows.instant(r, "created_at"),
                JobRows.instant(r, "finished_at"));
    }
}
