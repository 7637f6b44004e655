package dev.steadfast.http;

import dev.steadfast.domain.ErrorCode;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The checks on the request line and headers that precede every /ojs resource (pure: strings in, a refusal or
 * null out), so the HTTP layer never answers them with a bare status: a request line over {@value #MAX_LINE}
 * bytes (414), more than {@value #MAX_HEADERS} headers or {@value #MAX_HEADER_BYTES} bytes of them (431), more
 * than {@value #MAX_PARAMS} query parameters, a character RFC 3986 does not allow unencoded ({@code {}[]<>\^|"`},
 * spaces, non-ASCII), a malformed percent-escape, an escape that decodes to invalid UTF-8, and a NUL (which
 * PostgreSQL cannot store) anywhere in the path or the query (each 400, naming the path or the parameter).
 *
 * <p>The HTTP layer's own limits (quarkus.http.limits.max-initial-line-length and max-header-size) are set far
 * above these, so these checks see the request first; only beyond those does the HTTP layer answer by itself.
 */
final class RequestTarget {

    static final int MAX_LINE = 4096;
    static final int MAX_HEADERS = 100;
    static final int MAX_HEADER_BYTES = 16384;
    static final int MAX_PARAMS = 100;

    /** Why a request is refused. */
    public record Refusal(ErrorCode code, String message, Map<String, Object> details) {
    }

    private RequestTarget() {
    }

    /** The refusal for this request line and these header sizes, or null when it may go on. */
    public static Refusal check(String method, String uri, int headerCount, long headerBytes) {
        long line = (long) method.length() + 1 + uri.length() + 9;
        if (line > MAX_LINE) {
            return new Refusal(ErrorCode.URI_TOO_LONG, "The request line is " + line + " bytes; the limit is "
                    + MAX_LINE + ".", Map.of("limit_bytes", MAX_LINE, "received_bytes", line));
        }
        if (headerCount > MAX_HEADERS || headerBytes > MAX_HEADER_BYTES) {
            return new Refusal(ErrorCode.HEADERS_TOO_LARGE, "The request has " + headerCount + " headers of "
                    + headerBytes + " bytes; the limits are " + MAX_HEADERS + " headers and " + MAX_HEADER_BYTES
                    + " bytes.", Map.of("limit_headers", MAX_HEADERS, "limit_bytes", MAX_HEADER_BYTES));
        }
        return syntax(uri, MAX_PARAMS);
    }

    /**
     * Only the URL's syntax (characters, escapes, UTF-8, NUL), for paths outside /ojs (the console, /q), whose
     * pages may carry long filters; {@code maxParams} bounds the query parameters.
     */
    public static Refusal syntax(String uri, int maxParams) {
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        Refusal r = component(path, "path", false);
        if (r != null || q < 0) {
            return r;
        }
        String query = uri.substring(q + 1);
        int hash = query.indexOf('#');
        if (hash >= 0) {
            query = query.substring(0, hash);
        }
        String[] params = query.isEmpty() ? new String[0] : query.split("&", -1);
        if (params.length > maxParams) {
            return invalid("query", "The query has " + params.length + " parameters; the limit is " + maxParams + ".");
        }
        for (String p : params) {
            int eq = p.indexOf('=');
            String rawName = eq < 0 ? p : p.substring(0, eq);
            Refusal bad = component(rawName, "query parameter name", true);
            if (bad != null) {
                return bad;
            }
            if (eq >= 0) {
                bad = component(p.substring(eq + 1), decode(rawName), true);
                if (bad != null) {
                    return bad;
                }
            }
        }
        return null;
    }

    /** Checks one path or query component: allowed characters, escapes, UTF-8, no NUL. */
    private static Refusal component(String raw, String field, boolean query) {
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length() || hex(raw.charAt(i + 1)) < 0 || hex(raw.charAt(i + 2)) < 0) {
                    return invalid(field, "'" + field + "' has a malformed percent-escape: '%' must be followed by"
                            + " two hexadecimal digits.");
                }
                i += 2;
            } else if (!allowed(c, query)) {
                return invalid(field, "'" + field + "' contains the character " + shown(c)
                        + ", which must be percent-encoded in a URL.");
            }
        }
        String decoded = decode(raw);
        if (decoded == null) {
            return invalid(field, "'" + field + "' does not decode to UTF-8 text.");
        }
        if (decoded.indexOf('\u0000') >= 0) {
            return invalid(field, "'" + field + "' contains a NUL character (%00), which cannot be stored.");
        }
        return null;
    }

    private static Refusal invalid(String field, String message) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("field", field);
        return new Refusal(ErrorCode.INVALID_REQUEST, message, d);
    }

    /** RFC 3986 pchar plus '/' (and '?' in a query), without '%' (checked as an escape). */
    private static boolean allowed(char c, boolean query) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || "-._~!$&'()*+,;=:@/".indexOf(c) >= 0 || query && c == '?';
    }

    private static String shown(char c) {
        return c < 0x20 || c > 0x7e ? String.format("U+%04X", (int) c) : "'" + c + "'";
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }

    /** The percent-decoded text of a checked component ('+' stays '+'), or null when it is not UTF-8. */
    static String decode(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%' && i + 2 < raw.length() && hex(raw.charAt(i + 1)) >= 0 && hex(raw.charAt(i + 2)) >= 0) {
                out.write(hex(raw.charAt(i + 1)) * 16 + hex(raw.charAt(i + 2)));
                i += 2;
            } else {
                out.write(c);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
