package dev.steadfast.domain;

import dev.steadfast.domain.retry.HandlerCode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a worker said when it failed a job, normalized into the three things the retry engine needs: the error
 * type (matched against {@code non_retryable_errors} and shown in the history), the handler response code, and
 * the OJS error code.
 *
 * <p>Workers send errors in several shapes: {@code {"type": "payment.declined", "code": "DISCARD"}} (ojs-retry
 * section 7.3), {@code {"code": "handler_error", "details": {"error_class": "FatalError"}}} (HTTP binding), or
 * just a code and a message. The type is taken, in order, from {@code type}; from {@code details.error_class} or
 * {@code details.type}; from {@code code} when the code is neither an OJS error code nor a handler code (then it
 * is the worker's own error type); and otherwise it is derived from the message by {@link #classify}.
 */
public record FailureReport(String type, String code, Optional<HandlerCode> handlerCode, String message,
                            Boolean retryable) {

    /** The OJS error codes a worker may report (ojs-http-binding.md 16.3); anything else is an error type. */
    static final Set<String> OJS_CODES = Set.of("handler_error", "timeout", "cancelled", "invalid_payload",
            "invalid_request", "not_found", "backend_error", "rate_limited", "duplicate", "queue_paused",
            "schema_validation", "unsupported", "internal_error", "conflict", "validation_error");

    /** The code recorded when the worker sent none, or sent only a handler code. */
    public static final String DEFAULT_CODE = "handler_error";

    private static final List<Map.Entry<Pattern, String>> RULES = List.of(
            rule("\\b(connection|connect|socket)\\b.*\\b(timed? ?out|timeout)\\b", "ConnectionTimeout"),
            rule("\\b(timed? ?out|timeout|deadline exceeded)\\b", "Timeout"),
            rule("rate[ _-]?limit|too many requests|throttl", "RateLimitExceeded"),
            rule("connection (refused|reset)|econnrefused|econnreset|broken pipe", "ConnectionError"),
            rule("\\b(unauthori[sz]ed|forbidden|permission denied|access denied)\\b", "PermissionDenied"),
            rule("\\b(not found|no such)\\b", "NotFound"));

    /**
     * The type of an error nothing else names and that carries no stack trace: the conformance suite's
     * {@code retry-error-history-tracked} (level 1) asks for this name for an unclassified {@code handler_error}.
     */
    public static final String UNCLASSIFIED_TYPE = "InternalServerError";

    /**
     * The type of an error nothing else names that carries a stack trace ({@code details.stack} or
     * {@code details.backtrace}): the handler threw, which the error catalog calls {@code HandlerError} (OJS-3005,
     * "Job handler threw an exception during execution"). The JavaScript SDK 0.4.0 reports every exception a
     * handler throws this way (no type, the stack in details), and a name for a fault of the server would mislead.
     */
    public static final String THROWN_TYPE = "HandlerError";

    private static Map.Entry<Pattern, String> rule(String regex, String type) {
        return Map.entry(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), type);
    }

    /** Normalizes a worker's error object; every argument may be null. */
    public static FailureReport of(String code, String type, String message, Boolean retryable,
                                   Map<String, Object> details) {
        Optional<HandlerCode> handler = HandlerCode.fromWire(code);
        boolean ojsCode = code != null && OJS_CODES.contains(code.toLowerCase(Locale.ROOT));
        String wireCode = handler.isPresent() || code == null || code.isBlank() ? DEFAULT_CODE
                : ojsCode ? code.toLowerCase(Locale.ROOT) : DEFAULT_CODE;
        String t = firstNonBlank(type, detail(details, "error_class"), detail(details, "type"));
        if (t == null && code != null && !code.isBlank() && handler.isEmpty() && !ojsCode) {
            t = code;
        }
        if (t == null) {
            t = classify(message, wireCode);
            if (UNCLASSIFIED_TYPE.equals(t) && details != null
                    && (details.get("stack") != null || details.get("backtrace") != null)) {
                t = THROWN_TYPE;
            }
        }
        return new FailureReport(t, wireCode, handler, message == null ? "" : message, retryable);
    }

    /**
     * Names an error from its message when the worker did not: the first matching rule of a small fixed table
     * (connection timeouts, timeouts, rate limits, connection errors, permission and not-found errors); else the
     * reported OJS code under its catalog name ({@code timeout} is {@code Timeout}, {@code invalid_payload} is
     * {@code InvalidPayload}); anything else (no code, {@code handler_error}) is {@link #UNCLASSIFIED_TYPE}.
     */
    public static String classify(String message, String code) {
        if (message != null) {
            for (Map.Entry<Pattern, String> r : RULES) {
                if (r.getKey().matcher(message).find()) {
                    return r.getValue();
                }
            }
        }
        if (code == null || !OJS_CODES.contains(code) || DEFAULT_CODE.equals(code)) {
            return UNCLASSIFIED_TYPE;
        }
        StringBuilder name = new StringBuilder();
        for (String word : code.split("_")) {
            name.append(Character.toUpperCase(word.charAt(0))).append(word, 1, word.length());
        }
        return name.toString();
    }

    private static String detail(Map<String, Object> details, String key) {
        Object v = details == null ? null : details.get(key);
        return v instanceof String s ? s : null;
    }

    private static String firstNonBlank(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return null;
    }
}
