package dev.steadfast.tools.ojs;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Optional;

/**
 * One answer of the server, or the lack of one.
 *
 * @param status the HTTP status, or -1 when no answer came (connection refused or lost, timeout)
 * @param body the body as text; for a failure, the exception's {@code toString()}
 * @param requestId the {@code X-Request-Id} this request was sent with (the server echoes it and logs it)
 * @param nanos from just before sending to the end of the answer's body
 * @param failure the exception when no answer came, else null
 */
public record OjsAnswer(int status, String body, String requestId, long nanos, IOException failure) {

    static OjsAnswer of(int status, String body, String requestId, long nanos) {
        return new OjsAnswer(status, body, requestId, nanos, null);
    }

    static OjsAnswer failed(IOException e, String requestId, long nanos) {
        return new OjsAnswer(-1, e.toString(), requestId, nanos, e);
    }

    /** True when no HTTP answer came, so whether the request had an effect is unknown. */
    public boolean failed() {
        return status < 0;
    }

    /** The body read as {@code type}; empty when it is not JSON of that shape. */
    public <T> Optional<T> as(Class<T> type) {
        return failed() ? Optional.empty() : OjsJson.read(body, type);
    }

    /** The first value named {@code field} anywhere in the body (depth first), as text; empty if none. */
    public Optional<String> find(String field) {
        return as(JsonNode.class).map(n -> n.findValue(field)).filter(v -> !v.isContainerNode()).map(JsonNode::asText);
    }

    /** The OJS error envelope's {@code error} object, when the body is one. */
    public Optional<ErrorEnvelope.Error> envelope() {
        return as(ErrorEnvelope.class).map(ErrorEnvelope::error).filter(ErrorEnvelope.Error::complete);
    }

    /** The body cut to {@code max} characters (with "..." when cut), for error messages. */
    public String excerpt(int max) {
        return body.length() > max ? body.substring(0, max) + "..." : body;
    }
}
