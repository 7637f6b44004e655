package dev.steadfast.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.retry.Iso8601Duration;
import dev.steadfast.domain.retry.PolicyViolation;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads a JSON request body field by field, refusing a wrong shape with a 400 that names the field, what was
 * expected and what was received. Malformed JSON is 400 invalid_payload.
 */
public final class Body {

    /**
     * Largest body accepted, in bytes. HttpFrame refuses larger bodies by Content-Length before they are read;
     * this catches chunked bodies, which carry no length. Set once at start-up from steadfast.http.max-body-bytes.
     */
    static volatile long maxBytes = Long.MAX_VALUE;

    private static final Pattern RFC3339_YEAR = Pattern.compile("^\\d{4}-");

    private final ObjectNode root;
    private final String prefix;

    private Body(ObjectNode root, String prefix) {
        this.root = root;
        this.prefix = prefix;
    }

    public static Body parse(ObjectMapper m, String text) {
        if (text == null || text.isBlank()) {
            throw new OjsException(ErrorCode.INVALID_PAYLOAD, "The request body must be a JSON object.", Map.of());
        }
        checkSize(text);
        JsonNode node;
        try {
            node = m.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(text);
        } catch (JsonProcessingException e) {
            throw malformed(e);
        }
        if (!(node instanceof ObjectNode o)) {
            throw new OjsException(ErrorCode.INVALID_PAYLOAD, "The request body must be a JSON object, not "
                    + kind(node) + ".", Map.of("expected", "object", "received", kind(node)));
        }
        String nul = nulAt(o, "");
        if (nul != null) {
            throw OjsException.invalidField(nul, "'" + nul + "' contains a NUL character (\\u0000), which cannot be"
                    + " stored; remove it or encode the data (e.g. base64).", "text without NUL", "text with NUL");
        }
        return new Body(o, "");
    }

    /**
     * 400 invalid_payload for a body Jackson could not read, in our words: the reason, then where ("at line 1,
     * column 12"), with line and column in the details. Jackson's own text names its settings and says
     * {@code Source: REDACTED (...)}, so only its first clause is kept, and only when it holds neither.
     */
    static OjsException malformed(JsonProcessingException e) {
        int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
        int column = e.getLocation() == null ? 0 : e.getLocation().getColumnNr();
        String at = line > 0 ? " at line " + line + ", column " + column : "";
        return new OjsException(ErrorCode.INVALID_PAYLOAD, "The request body is not valid JSON: " + reason(e) + at
                + ".", line > 0 ? Map.of("line", line, "column", column) : Map.of());
    }

    private static String reason(JsonProcessingException e) {
        if (e instanceof JsonEOFException) {
            return "it ends before the JSON is complete (an object, array or string is not closed)";
        }
        if (e instanceof MismatchedInputException
                && String.valueOf(e.getOriginalMessage()).startsWith("Trailing token")) {
            return "more than one JSON value (send a single object)";
        }
        if (e instanceof StreamConstraintsException) {
            return "it is nested too deeply or holds a number or string too long to read";
        }
        String m = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        int cut = m.indexOf(" (start marker at");
        m = (cut >= 0 ? m.substring(0, cut) : m).strip();
        if (m.isEmpty() || m.contains("Source:") || m.contains("`") || m.contains("\n")) {
            return "it could not be read";
        }
        return Character.toLowerCase(m.charAt(0)) + m.substring(1);
    }

    /**
     * The JSON path of the first string or key holding a NUL character, or null. PostgreSQL stores neither text
     * nor jsonb with a NUL, so such a request is refused here, whole, before anything reaches the database.
     */
    static String nulAt(JsonNode node, String path) {
        // the scan builds no paths: a body almost never holds a NUL, and naming every field on the way was most of
        // what a bulk PUSH allocated (docs/performance/README.md)
        return hasNul(node) ? pathOfNul(node, path) : null;
    }

    private static boolean hasNul(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue().indexOf('\0') >= 0;
        }
        if (node.isArray()) {
            for (JsonNode e : node) {
                if (hasNul(e)) {
                    return true;
                }
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                if (e.getKey().indexOf('\0') >= 0 || hasNul(e.getValue())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String pathOfNul(JsonNode node, String path) {
        if (node.isTextual()) {
            return node.textValue().indexOf('\0') >= 0 ? (path.isEmpty() ? "$" : path) : null;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String p = pathOfNul(node.get(i), path + "[" + i + "]");
                if (p != null) {
                    return p;
                }
            }
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String key = e.getKey();
                String p = (path.isEmpty() ? "" : path + ".") + key.replace("\0", "\\u0000");
                if (key.indexOf('\0') >= 0) {
                    return p;
                }
                p = pathOfNul(e.getValue(), p);
                if (p != null) {
                    return p;
                }
            }
        }
        return null;
    }

    private static void checkSize(String text) {
        // chars <= UTF-8 bytes <= 3 * chars (for the BMP), so the exact count is needed only near the limit
        if ((long) text.length() * 3 <= maxBytes) {
            return;
        }
        long bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxBytes) {
            throw new OjsException(ErrorCode.PAYLOAD_TOO_LARGE, "The request body is " + bytes
                    + " bytes; the limit is " + maxBytes + ".", Map.of("limit_bytes", maxBytes, "received_bytes", bytes));
        }
    }

    /** An element of a JSON array that must be an object (e.g. one job of a batch), read with {@code prefix.}. */
    public static Body element(ObjectMapper m, JsonNode node, String prefix) {
        if (!(node instanceof ObjectNode o)) {
            throw OjsException.invalidField(prefix, "'" + prefix + "' must be a JSON object, not " + kind(node) + ".",
                    "object", kind(node));
        }
        return new Body(o, prefix + ".");
    }

    /** A body already read as a JSON object (the gRPC binding builds one from its request message). */
    public static Body of(ObjectNode node) {
        return new Body(node, "");
    }

    /** An empty body reads as an empty object (for POSTs whose body is optional). */
    static Body parseOptional(ObjectMapper m, String text) {
        return text == null || text.isBlank() ? new Body(m.createObjectNode(), "") : parse(m, text);
    }

    public ObjectNode node() {
        return root;
    }

    /** Another object read with the same field prefix (a copy of this one, changed). */
    public Body with(ObjectNode other) {
        return new Body(other, prefix);
    }

    public boolean has(String name) {
        JsonNode v = root.get(name);
        return v != null && !v.isNull();
    }

    public JsonNode raw(String name) {
        JsonNode v = root.get(name);
        return v == null || v.isNull() ? null : v;
    }

    public String string(String name, boolean required) {
        JsonNode v = value(name, required);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw wrongType(name, "string", v);
        }
        return v.textValue();
    }

    public Long integer(String name) {
        JsonNode v = value(name, false);
        if (v == null) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw wrongType(name, "integer", v);
        }
        return v.longValue();
    }

    public Boolean bool(String name) {
        JsonNode v = value(name, false);
        if (v == null) {
            return null;
        }
        if (!v.isBoolean()) {
            throw wrongType(name, "boolean", v);
        }
        return v.booleanValue();
    }

    public JsonNode array(String name, boolean required) {
        JsonNode v = value(name, required);
        if (v != null && !v.isArray()) {
            throw wrongType(name, "array", v);
        }
        return v;
    }

    public Body object(String name) {
        JsonNode v = value(name, false);
        if (v == null) {
            return null;
        }
        if (!v.isObject()) {
            throw wrongType(name, "object", v);
        }
        return new Body((ObjectNode) v, field(name) + ".");
    }

    public List<String> strings(String name, boolean required) {
        JsonNode v = array(name, required);
        if (v == null) {
            return null;
        }
        List<String> out = new ArrayList<>(v.size());
        for (JsonNode e : v) {
            if (!e.isTextual()) {
                throw OjsException.invalidField(field(name), "'" + field(name) + "' must be an array of strings.",
                        "array of strings", "array containing " + kind(e));
            }
            out.add(e.textValue());
        }
        return out;
    }

    /** An RFC 3339 timestamp with a time zone (ojs-core.md 5.5: timestamps without one are refused). */
    public Instant timestamp(String name) {
        return timestamp(name, null);
    }

    /**
     * An RFC 3339 timestamp with a time zone, or, when {@code now} is given, an offset from it written {@code +}
     * and an ISO 8601 duration ({@code "+PT5S"}, the binding's openapi.yaml for scheduled_at).
     */
    public Instant timestamp(String name, Instant now) {
        String s = string(name, false);
        if (s == null) {
            return null;
        }
        if (now != null && s.startsWith("+")) {
            try {
                return now.plus(Iso8601Duration.parse(field(name), s.substring(1)));
            } catch (PolicyViolation e) {
                throw OjsException.invalidField(field(name), "'" + field(name) + "' must be an RFC 3339 timestamp"
                        + " or '+' and an ISO 8601 duration (e.g. +PT5S): " + e.getMessage(),
                        "RFC 3339 or +ISO 8601 duration", s);
            }
        }
        try {
            if (!RFC3339_YEAR.matcher(s).lookingAt()) { // java.time also reads +999999999-..., which no column holds
                throw new DateTimeException("not a four-digit year");
            }
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeException e) {
            throw OjsException.invalidField(field(name), "'" + field(name)
                    + "' must be an RFC 3339 timestamp with a time zone, e.g. 2026-03-15T09:30:00Z.", "RFC 3339", s);
        }
    }

    public String field(String name) {
        return prefix + name;
    }

    /** Where this object is in the request ({@code options.unique}), or "" for the body itself. */
    public String path() {
        return prefix.isEmpty() ? "" : prefix.substring(0, prefix.length() - 1);
    }

    private JsonNode value(String name, boolean required) {
        JsonNode v = root.get(name);
        if (v == null || v.isNull()) {
            if (required) {
                throw OjsException.invalidField(field(name), "The '" + field(name) + "' field is required.",
                        "present", v == null ? "missing" : "null");
            }
            return null;
        }
        return v;
    }

    private OjsException wrongType(String name, String expected, JsonNode v) {
        return OjsException.invalidField(field(name), "The '" + field(name) + "' field must be "
                + (expected.startsWith("a") || expected.startsWith("i") || expected.startsWith("o") ? "an " : "a ")
                + expected + ", not " + kind(v) + ".", expected, kind(v));
    }

    public static String kind(JsonNode v) {
        JsonNodeType t = v.getNodeType();
        return switch (t) {
            case NUMBER -> v.isIntegralNumber() ? "integer" : "number";
            case STRING -> "string";
            default -> t.name().toLowerCase(Locale.ROOT);
        };
    }
}
