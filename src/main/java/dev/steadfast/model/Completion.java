package dev.steadfast.model;

import java.time.Instant;
import java.util.UUID;

/** One acknowledgement: the job, the result JSON text (or null) and the worker that claims to hold it. */
public record Completion(UUID jobId, String resultJson, String workerId) {

    /** What the completing statement answered for one acknowledgement: done, or refused with the job's facts. */
    public sealed interface Result permits Done, Refused {
        UUID jobId();
    }

    /** A job the store completed, with what telemetry needs (the traceparent from its meta, for the log line). */
    public record Done(UUID jobId, String type, String queue, int attempt, Instant startedAt, Instant completedAt,
                       String traceparent) implements Result {
    }

    /**
     * An acknowledgement the statement's guard refused, with the job as the same statement saw it: its state, lease
     * holder and lease end ({@code job} null: no such job, live or finished), and the workflow it is a step of.
     */
    public record Refused(UUID jobId, StateAndOwner job, UUID workflowId) implements Result {
    }
}
