package dev.steadfast.store;

import java.time.Instant;
import java.util.UUID;

/** One acknowledgement: the job, the result JSON text (or null) and the worker that claims to hold it. */
public record Completion(UUID jobId, String resultJson, String workerId) {

    /** A job the store completed, with what telemetry needs (the traceparent from its meta, for the log line). */
    public record Done(UUID jobId, String type, String queue, int attempt, Instant startedAt, Instant completedAt,
                       String traceparent) {
    }
}
