package dev.steadfast.tools.ojs;

import java.util.List;

/** The worker requests the tools send (ojs-http-binding.md 10): FETCH, ACK, FAIL and the batch ACK extension. */
public final class WorkerCalls {

    public static final String FETCH = "/ojs/v1/workers/fetch";
    public static final String ACK = "/ojs/v1/workers/ack";
    public static final String NACK = "/ojs/v1/workers/nack";
    public static final String BATCH_ACK = "/ojs/v1/workers/ack/batch";

    private WorkerCalls() {
    }

    /** FETCH: {@code visibilityTimeoutMs} and {@code waitMs} null are not sent. */
    public record Fetch(List<String> queues, int count, String workerId, Integer visibilityTimeoutMs, Integer waitMs) {

        public static Fetch of(String queue, int count, String workerId) {
            return new Fetch(List.of(queue), count, workerId, null, null);
        }

        public Fetch waiting(Integer waitMs) {
            return new Fetch(queues, count, workerId, visibilityTimeoutMs, waitMs);
        }

        public Fetch leasing(Integer visibilityTimeoutMs) {
            return new Fetch(queues, count, workerId, visibilityTimeoutMs, waitMs);
        }
    }

    /** ACK; {@code workerId} or {@code result} null are not sent. */
    public record Ack(String jobId, String workerId, Object result) {
    }

    /** FAIL (the binding's nack). */
    public record Nack(String jobId, String workerId, JobError error) {
    }

    /** The error a FAIL reports. */
    public record JobError(String type, String message) {
    }

    /** The batch ACK extension: one answer per item, ACK (result) or FAIL (error). */
    public record BatchAck(String workerId, List<Item> acks) {

        public record Item(String jobId, Object result, JobError error) {
        }
    }
}
