package dev.steadfast.tools.ojs;

/** The OJS error answer: {@code {"error": {"code", "message", "request_id", ...}}} (ojs-http-binding.md 6). */
public record ErrorEnvelope(Error error) {

    /** What the envelope says; {@code requestId} echoes the request's {@code X-Request-Id}. */
    public record Error(String code, String message, String requestId) {

        /** True when code and message are there, as every envelope must have them. */
        public boolean complete() {
            return code != null && message != null;
        }
    }
}
