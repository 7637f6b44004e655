package dev.steadfast.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.domain.ErrorCode;
import java.util.Map;

/**
 * The OJS error envelope (ojs-http-binding.md section 16.1): {@code {"error": {code, type, message, retryable,
 * details, request_id, hint, docs_url}}}. {@code type} repeats the code (the binding's OpenAPI schema and the
 * conformance suite read it); {@code docs_url} points at the server's own error reference page. Every field is
 * written, {@code request_id} and {@code hint} as null when there is none.
 */
record ErrorEnvelope(ErrorObject error) {

    static final ObjectMapper MAPPER = new ObjectMapper();

    /** The envelope's {@code error} object. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ErrorObject(String code, String type, String message, boolean retryable,
                              Map<String, Object> details, String requestId, String hint, String docsUrl) {
    }

    public static ErrorEnvelope of(ErrorCode code, String message, Map<String, Object> details, String requestId) {
        return new ErrorEnvelope(new ErrorObject(code.wire(), code.wire(), message, code.retryable(),
                details == null ? Map.of() : details, requestId, code.hint(), "/docs/errors.html#" + code.wire()));
    }

    public static String json(ErrorCode code, String message, Map<String, Object> details, String requestId) {
        try {
            return MAPPER.writeValueAsString(of(code, message, details, requestId));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
