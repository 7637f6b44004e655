package dev.steadfast.jobs;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.domain.JobState;
import dev.steadfast.http.Timestamps;
import dev.steadfast.model.JobRow;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The job envelope on the wire (ojs-core.md section 5, ojs-http-binding.md 9.3). Stored JSON (args, meta,
 * result, error, errors, retry) is written out verbatim; timestamps are RFC 3339 UTC with milliseconds; a field
 * that does not apply is left out rather than sent as null ({@code tags} is always written); attributes the
 * producer added outside the OJS envelope come back at the top level as they were sent, after the envelope.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobView(String specversion, String id, String type, String queue, @JsonRawValue String args,
                      @JsonRawValue String meta, int priority, String state, int attempt, int maxAttempts,
                      Long timeoutMs, long visibilityTimeoutMs, @JsonInclude(JsonInclude.Include.ALWAYS) List<String> tags,
                      @JsonRawValue String retry, String createdAt, String enqueuedAt, String scheduledAt,
                      String expiresAt, String startedAt, String completedAt, String cancelledAt, String discardedAt,
                      String nextRetryAt, Long retryDelayMs, String workerId, String leaseExpiresAt,
                      Boolean deadLetter, Integer snoozes, Integer run, @JsonRawValue String error,
                      @JsonRawValue String errors, @JsonRawValue String result, @JsonRawValue String checkpoint,
                      @JsonAnyGetter Map<String, JsonNode> extensions) {

    /** The envelope's own names: an extension never shadows them (the parser keeps them out of extensions). */
    private static final Set<String> ENVELOPE = Set.of("specversion", "id", "type", "queue", "args", "meta",
            "priority", "state", "attempt", "max_attempts", "timeout_ms", "visibility_timeout_ms", "tags", "retry",
            "created_at", "enqueued_at", "scheduled_at", "expires_at", "started_at", "completed_at", "cancelled_at",
            "discarded_at", "next_retry_at", "retry_delay_ms", "worker_id", "lease_expires_at", "dead_letter",
            "snoozes", "run", "error", "errors", "result");

    public static JobView of(ObjectMapper m, JobRow j) {
        return of(m, j, true);
    }

    /**
     * The envelope a worker gets from FETCH: everything but the error history, the last error and the stored retry
     * policy, which a handler never needs (INFO has them); the claim does not even read them.
     */
    public static JobView claimed(ObjectMapper m, JobRow j) {
        return of(m, j, false);
    }

    private static JobView of(ObjectMapper m, JobRow j, boolean whole) {
        JobState s = j.state();
        return new JobView("1.0", j.id().toString(), j.type(), j.queue(), j.argsJson(), j.metaJson(), j.priority(),
                s.wire(), j.attempt(), j.maxAttempts(), j.timeoutMs(), j.visibilityTimeoutMs(), j.tags(),
                whole ? StoredRetryPolicy.effective(m, j.retryPolicyJson()) : null, Timestamps.format(j.createdAt()),
                Timestamps.format(j.enqueuedAt()), Timestamps.format(j.scheduledAt()),
                // The deadline as the producer wrote it: no fraction when it is a whole second (the conformance
                // suite compares it as text); every other timestamp keeps the fixed millisecond form.
                j.expiresAt() == null ? null : j.expiresAt().toString(),
                Timestamps.format(j.startedAt()), Timestamps.format(j.completedAt()),
                Timestamps.format(j.cancelledAt()), Timestamps.format(j.discardedAt()),
                s == JobState.RETRYABLE ? Timestamps.format(j.runAt()) : null, j.retryDelayMs(),
                s == JobState.ACTIVE ? j.leaseOwner() : null,
                s == JobState.ACTIVE ? Timestamps.format(j.leaseExpiresAt()) : null,
                s == JobState.DISCARDED ? j.deadLetter() : null, j.snoozes() > 0 ? j.snoozes() : null,
                j.run() > 1 ? j.run() : null, j.errorJson(), whole ? j.errorsJson() : null, j.resultJson(), null,
                extensions(m, j.extensionsJson()));
    }

    /**
     * This envelope with the job's checkpoint ({@code {"state": ..., "sequence": n}} as JSON text), as FETCH hands
     * it to the attempt it starts (ojs-durable-execution.md 6.1); an extension attribute of the same name gives way.
     */
    public JobView withCheckpoint(String checkpointJson) {
        Map<String, JsonNode> ext = extensions;
        if (ext != null && ext.containsKey("checkpoint")) {
            ext = new LinkedHashMap<>(ext);
            ext.remove("checkpoint");
        }
        return new JobView(specversion, id, type, queue, args, meta, priority, state, attempt, maxAttempts, timeoutMs,
                visibilityTimeoutMs, tags, retry, createdAt, enqueuedAt, scheduledAt, expiresAt, startedAt,
                completedAt, cancelledAt, discardedAt, nextRetryAt, retryDelayMs, workerId, leaseExpiresAt,
                deadLetter, snoozes, run, error, errors, result, checkpointJson, ext);
    }

    private static Map<String, JsonNode> extensions(ObjectMapper m, String json) {
        if (json == null) {
            return null;
        }
        try {
            Map<String, JsonNode> out = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = m.readTree(json).fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!ENVELOPE.contains(e.getKey())) {
                    out.put(e.getKey(), e.getValue());
                }
            }
            return out;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored extensions are not JSON", e);
        }
    }
}
