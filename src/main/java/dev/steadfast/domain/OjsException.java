package dev.steadfast.domain;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one exception type for a request the server refuses: an {@link ErrorCode}, a message safe to show the
 * caller, and structured details. The API layer turns it into the OJS error envelope.
 */
public final class OjsException extends RuntimeException {

    private final ErrorCode code;
    private final Map<String, Object> details;

    public OjsException(ErrorCode code, String message, Map<String, Object> details) {
        super(message, null, false, false);
        this.code = code;
        this.details = details == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    public ErrorCode code() {
        return code;
    }

    public Map<String, Object> details() {
        return details;
    }

    /** This refusal about the job at {@code index} of a batch: the whole batch is refused. */
    public OjsException atIndex(int index) {
        Map<String, Object> d = new LinkedHashMap<>(details);
        d.put("index", index);
        return new OjsException(code, "Batch validation failed: job at index " + index + ": " + getMessage(), d);
    }

    /** A request field with a bad value: 400 invalid_request naming the field. */
    public static OjsException invalidField(String field, String message) {
        return new OjsException(ErrorCode.INVALID_REQUEST, message, Map.of("field", field));
    }

    /** A request field with a bad value: 400 invalid_request naming the field, what was expected and received. */
    public static OjsException invalidField(String field, String message, String expected, String received) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("field", field);
        d.put("expected", expected);
        d.put("received", received);
        return new OjsException(ErrorCode.INVALID_REQUEST, message, d);
    }

    public static OjsException notFound(String resourceType, String id) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("resource_type", resourceType);
        d.put("resource_id", id);
        String what = "job".equals(resourceType) ? "Job" : resourceType.replace('_', ' ');
        return new OjsException(ErrorCode.NOT_FOUND, what + " '" + id + "' not found.", d);
    }

    public static OjsException conflict(String message, String jobId, JobState current) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("job_id", jobId);
        d.put("current_state", current.wire());
        return new OjsException(ErrorCode.CONFLICT, message, d);
    }
}
