package dev.steadfast.domain;

/**
 * A W3C Trace Context (https://www.w3.org/TR/trace-context/): the {@code traceparent} of the producer's span and,
 * when given, its {@code tracestate}. OJS carries it in a job's {@code meta} (ojs-observability.md 5.1); the
 * server also takes it from a producer's HTTP headers, and puts its trace and span ids on log lines about the job.
 *
 * <p>Validation follows the W3C rules a receiver applies: {@code traceparent} is
 * {@code version-traceid-parentid-flags} in lower-case hex; version {@code ff} is invalid; version {@code 00} is
 * exactly 55 characters; a later version may be longer, and only its first four fields are read (a character
 * after them must be {@code -}); an all-zero trace id or parent id is invalid. {@code tracestate} is kept only
 * beside a valid {@code traceparent}, and only when it is a list of at most 32 {@code key=value} members of
 * printable ASCII, 512 characters at most; otherwise it is dropped and the traceparent kept (W3C 3.3). Nothing
 * here throws: an invalid header is ignored, never an error.
 */
public record TraceContext(String traceparent, String tracestate) {

    private static final int LENGTH = 55;
    private static final int MAX_STATE_CHARS = 512;
    private static final int MAX_STATE_MEMBERS = 32;

    /** The context of a {@code traceparent} (and {@code tracestate}); null when the traceparent is not valid. */
    public static TraceContext parse(String traceparent, String tracestate) {
        if (!validParent(traceparent)) {
            return null;
        }
        String state = tracestate == null ? null : tracestate.trim();
        return new TraceContext(traceparent.trim(), state != null && validState(state) ? state : null);
    }

    /** The 32 hex digits of the trace id. */
    public String traceId() {
        return traceparent.substring(3, 35);
    }

    /** The 16 hex digits of the producer's span (the W3C parent id). */
    public String spanId() {
        return traceparent.substring(36, 52);
    }

    static boolean validParent(String value) {
        if (value == null) {
            return false;
        }
        String s = value.trim();
        if (s.length() < LENGTH || !hex(s, 0, 2) || s.startsWith("ff") || s.charAt(2) != '-'
                || !hex(s, 3, 35) || s.charAt(35) != '-' || !hex(s, 36, 52) || s.charAt(52) != '-'
                || !hex(s, 53, 55)) {
            return false;
        }
        if (s.startsWith("00") ? s.length() != LENGTH : s.length() > LENGTH && s.charAt(LENGTH) != '-') {
            return false;
        }
        return !zeros(s, 3, 35) && !zeros(s, 36, 52);
    }

    static boolean validState(String s) {
        if (s.isEmpty() || s.length() > MAX_STATE_CHARS) {
            return false;
        }
        int members = 0;
        for (String member : s.split(",", -1)) {
            String m = member.trim();
            if (m.isEmpty()) {
                continue; // W3C allows empty list members
            }
            int eq = m.indexOf('=');
            if (eq <= 0 || eq == m.length() - 1 || ++members > MAX_STATE_MEMBERS) {
                return false;
            }
            for (int i = 0; i < m.length(); i++) {
                char c = m.charAt(i);
                if (c < 0x20 || c > 0x7e) {
                    return false;
                }
            }
        }
        return members > 0;
    }

    private static boolean hex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean zeros(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }
}
