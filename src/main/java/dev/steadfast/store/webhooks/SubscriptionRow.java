package dev.steadfast.store.webhooks;

import dev.steadfast.store.JobRow;
import io.vertx.mutiny.sqlclient.Row;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/** A webhook subscription as stored (V34); {@code metadata} is its JSON text. */
public record SubscriptionRow(String id, String tenantId, String url, List<String> events, List<String> queues,
                              List<String> jobTypes, boolean active, String secret, String previousSecret,
                              Instant previousSecretUntil, String metadata, int timeoutMs, Instant createdAt,
                              Instant updatedAt) {

    static SubscriptionRow from(Row r) {
        return new SubscriptionRow(r.getString("id"), r.getString("tenant_id"), r.getString("url"),
                strings(r, "events"), strings(r, "queues"), strings(r, "job_types"), r.getBoolean("active"),
                r.getString("secret"), r.getString("previous_secret"), JobRow.instant(r, "previous_secret_until"),
                r.getString("metadata"), r.getInteger("timeout_ms"), JobRow.instant(r, "created_at"),
                JobRow.instant(r, "updated_at"));
    }

    static List<String> strings(Row r, String column) {
        String[] a = r.getArrayOfStrings(column);
        return a == null ? List.of() : Arrays.asList(a);
    }
}
