package dev.steadfast.jobs;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.retry.RetryPolicy;
import dev.steadfast.http.Json;
import java.util.Map;

/**
 * A job's retry policy as its row keeps it and as the API shows it. The row keeps {@link RetryPolicy#stored()}: the
 * fields that differ from the spec default, {@code {}} for the default itself (the whole default was 236 bytes of a
 * 473-byte row, written again by every claim, FAIL and finish). Readers that show the policy (INFO, PUSH answers, the
 * console) expand it here; the retry decision reads it with {@link RetryPolicy#fromStored}. Rows written before keep
 * their whole policy, which reads back the same; and a previous version, running beside this one during a rolling
 * upgrade, merges what it reads over the default as well, so it reads these rows right.
 */
public final class StoredRetryPolicy {

    /** Expansions of the stored forms seen (a server sees few distinct policies; bounded all the same). */
    private static final Cache<String, String> EXPANDED = Caffeine.newBuilder().maximumSize(1_000).build();

    private StoredRetryPolicy() {
    }

    /** The stored form of the default policy. */
    static final String DEFAULT = "{}";

    /** The column's value for {@code p}: its stored form as JSON, {@code {}} for the default. */
    public static String store(ObjectMapper m, RetryPolicy p) {
        Map<String, Object> stored = p.stored();
        return stored.isEmpty() ? DEFAULT : Json.write(m, stored);
    }

    /** The whole effective policy as canonical JSON for a column's value. */
    public static String effective(ObjectMapper m, String stored) {
        return EXPANDED.get(stored == null ? DEFAULT : stored, s -> Json.write(m, policy(m, s).toWire()));
    }

    /** The policy a column's value stands for. */
    public static RetryPolicy policy(ObjectMapper m, String stored) {
        return RetryPolicy.fromStored(stored == null ? null : Json.readMap(m, stored));
    }
}
