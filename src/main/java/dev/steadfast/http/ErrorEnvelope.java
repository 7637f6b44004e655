package dev.steadfast.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.ErrorCode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The OJS error envelope (ojs-http-binding.md section 16.1): {@code {"error": {code, type, message, retryable,
 * details, request_id, hint, docs_url}}}. {@code type} repeats the code (the binding's OpenAPI schema and the
 * conformance suite read it); {@code docs_url} points at the server's own error reference page.
 */
public final class ErrorEnvelope {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private ErrorEnvelope() {
    }

    public static Map<String, Object> of(ErrorCode code, String message, Map<String, Object> details,
                                         String requestId) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("code", code.wire());
        e.put("type", code.wire());
        e.put("message", message);
        e.put("retryable", code.retryable());
        e.put("details", details == null ? Map.of() : details);
        e.put("request_id", requestId);
        e.put("hint", code.hint());
        e.put("docs_url", "/docs/errors.html#" + code.wire());
        return Map.of("error", e);
    }

    public static String json(ErrorCode code, String message, Map<String, Object> details, String requestId) {
        try {
            return MAPPER.writeValueAsString(of(code, message, details, requestId));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
