package dev.steadfast.jobs;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.steadfast.domain.OjsException;
import java.util.List;
import java.util.Map;

/** Bulk enqueue's answer (ojs-bulk-operations.md 5): counts and one item per job, in order. */
record BulkAnswer(int total, int succeeded, int failed, List<Item> items) {

    /** One job's outcome: {@code created} or {@code duplicate} with the job, or {@code failed} with an error. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Item(int index, String status, JobView job, List<String> warnings, ItemError error) {
    }

    /** A refused job's error: the envelope's code, message, retryable and details, without the request's parts. */
    public record ItemError(String code, String message, boolean retryable, Map<String, Object> details) {

        static ItemError of(OjsException e) {
            return new ItemError(e.code().wire(), e.getMessage(), e.code().retryable(), e.details());
        }
    }
}
