package dev.steadfast.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.steadfast.domain.JobState;
import dev.steadfast.http.Timestamps;
import dev.steadfast.store.JobRow;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The job envelope on the wire (ojs-core.md section 5, ojs-http-binding.md 9.3). Stored JSON (args, meta,
 * result, error, errors, retry) is written out verbatim; timestamps are RFC 3339 UTC with milliseconds; a field
 * that does not apply is left out rather than sent as null; attributes the producer added outside the OJS
 * envelope come back at the top level as they were sent.
 */
public final class JobJson {

    private JobJson() {
    }

    public static Map<String, Object> view(ObjectMapper m, JobRow j) {
        return view(m, j, true);
    }

    /**
     * The envelope a worker gets from FETCH: everything but the error history, the last error and the stored retry
     * policy, which a handler never needs (INFO has them); the claim does not even read them.
     */
    public static Map<String, Object> claimed(ObjectMapper m, JobRow j) {
        return view(m, j, false);
    }

    private static Map<String, Object> view(ObjectMapper m, JobRow j, boolean whole) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("specversion", "1.0");
        v.put("id", j.id().toString());
        v.put("type", j.type());
        v.put("queue", j.queue());
        v.put("args", new RawValue(j.argsJson()));
        v.put("meta", new RawValue(j.metaJson()));
        v.put("priority", j.priority());
        v.put("state", j.state().wire());
        v.put("attempt", j.attempt());
        v.put("max_attempts", j.maxAttempts());
        put(v, "timeout_ms", j.timeoutMs());
        v.put("visibility_timeout_ms", j.visibilityTimeoutMs());
        v.put("tags", j.tags());
        if (whole) {
            v.put("retry", new RawValue(j.retryPolicyJson()));
        }
        put(v, "created_at", Timestamps.format(j.createdAt()));
        put(v, "enqueued_at", Timestamps.format(j.enqueuedAt()));
        put(v, "scheduled_at", Timestamps.format(j.scheduledAt()));
        // The deadline as the producer wrote it: no fraction when it is a whole second (the conformance suite
        // compares it as text); every other timestamp keeps the fixed millisecond form.
        put(v, "expires_at", j.expiresAt() == null ? null : j.expiresAt().toString());
        put(v, "started_at", Timestamps.format(j.startedAt()));
        put(v, "completed_at", Timestamps.format(j.completedAt()));
        put(v, "cancelled_at", Timestamps.format(j.cancelledAt()));
        put(v, "discarded_at", Timestamps.format(j.discardedAt()));
        if (j.state() == JobState.RETRYABLE) {
            put(v, "next_retry_at", Timestamps.format(j.runAt()));
        }
        put(v, "retry_delay_ms", j.retryDelayMs());
        if (j.state() == JobState.ACTIVE) {
            put(v, "worker_id", j.leaseOwner());
            put(v, "lease_expires_at", Timestamps.format(j.leaseExpiresAt()));
        }
        if (j.state() == JobState.DISCARDED) {
            v.put("dead_letter", j.deadLetter());
        }
        if (j.snoozes() > 0) {
            v.put("snoozes", j.snoozes());
        }
        if (j.run() > 1) {
            v.put("run", j.run());
        }
        if (j.errorJson() != null) {
            v.put("error", new RawValue(j.errorJson()));
        }
        if (whole) {
            v.put("errors", new RawValue(j.errorsJson()));
        }
        if (j.resultJson() != null) {
            v.put("result", new RawValue(j.resultJson()));
        }
        addExtensions(m, v, j.extensionsJson());
        return v;
    }

    private static void addExtensions(ObjectMapper m, Map<String, Object> v, String json) {
        if (json == null) {
            return;
        }
        try {
            JsonNode ext = m.readTree(json);
            for (Iterator<Map.Entry<String, JsonNode>> it = ext.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                v.putIfAbsent(e.getKey(), e.getValue());
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored extensions are not JSON", e);
        }
    }

    private static void put(Map<String, Object> v, String key, Object value) {
        if (value != null) {
            v.put(key, value);
        }
    }
}
