package dev.steadfast.domain;

/**
 * Every error the server answers with: the HTTP status, the wire code (ojs-http-binding.md section 16.3 and the
 * codes the OJS conformance suite expects), whether the client may retry the same request, and a one-line hint.
 */
public enum ErrorCode {
    INVALID_REQUEST(400, "invalid_request", false,
            "Check the request against the OJS HTTP binding; details name the offending field."),
    INVALID_PAYLOAD(400, "invalid_payload", false, "The body must be a single valid JSON object."),
    SCHEMA_VALIDATION(400, "schema_validation", false, "The job's args do not match the JSON Schema registered for"
            + " its type (details.validation_errors, details.schema); fix the args or the schema."),
    VALIDATION_ERROR(422, "validation_error", false,
            "The request is well-formed but a value is not acceptable; details name the field."),
    UNAUTHENTICATED(401, "unauthenticated", false,
            "Send Authorization: Bearer <token> with a token the server knows (ojs-errors.md 4.3)."),
    PERMISSION_DENIED(403, "permission_denied", false,
            "This token's roles do not allow this operation; details name the roles that do."),
    NOT_FOUND(404, "not_found", false, "Check the id or path; jobs may have been pruned after their retention."),
    METHOD_NOT_ALLOWED(405, "invalid_request", false, "This path exists but not with this HTTP method."),
    CONFLICT(409, "conflict", false,
            "The job is not in a state that allows this operation; read it with GET /ojs/v1/jobs/{id}."),
    DUPLICATE(409, "duplicate", false, "A job with this id already exists; ids must be unique."),
    URI_TOO_LONG(414, "invalid_request", false,
            "Shorten the request line (4096 bytes at most); send long filters in a body where the endpoint takes one."),
    HEADERS_TOO_LARGE(431, "invalid_request", false, "Send fewer or smaller headers (100 and 16384 bytes at most)."),
    PAYLOAD_TOO_LARGE(413, "payload_too_large", false, "Send a smaller body; the limit is in details.limit_bytes."),
    QUEUE_PAUSED(422, "queue_paused", true, "Resume the queue or retry later."),
    QUEUE_FULL(429, "QUEUE_FULL", true,
            "The queue is at its depth bound (details.depth, details.bound); retry after Retry-After seconds."),
    UNSUPPORTED(422, "unsupported", false, "This server does not support the requested version or feature."),
    BACKEND_UNAVAILABLE(503, "backend_error", true, "The database is unreachable; retry with backoff."),
    SERVER_BUSY(503, "backend_error", true, "Too many requests wait for the database on this instance"
            + " (details.reason server_busy); nothing was done: retry after Retry-After seconds."),
    TENANT_LIMIT_EXCEEDED(429, "TENANT_LIMIT_EXCEEDED", true, "The tenant is at one of its limits"
            + " (details.limit: max_queue_depth, max_scheduled or max_enqueue_rate; details.current, details.maximum);"
            + " retry after Retry-After seconds or raise the tenant's limit."),
    INTERNAL(500, "internal_error", true, "An unexpected server error; retry, and report the request_id if it persists.");

    private final int status;
    private final String wire;
    private final boolean retryable;
    private final String hint;

    ErrorCode(int status, String wire, boolean retryable, String hint) {
        this.status = status;
        this.wire = wire;
        this.retryable = retryable;
        this.hint = hint;
    }

    public int status() {
        return status;
    }

    public String wire() {
        return wire;
    }

    public boolean retryable() {
        return retryable;
    }

    public String hint() {
        return hint;
    }
}
