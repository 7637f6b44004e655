package dev.steadfast.tools.grpcproxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Duration;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.JsonFormat;
import com.google.protobuf.util.Timestamps;
import java.text.ParseException;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one field of an HTTP request body as the type its message field has (ojs-grpc-binding.md 12.2): a JSON
 * value as a {@code Value}, an object as a {@code Struct} (both through protobuf's {@link JsonFormat}), an RFC 3339
 * string as a {@code Timestamp}, milliseconds or an ISO 8601 duration as a {@code Duration}. A field that is absent
 * or null reads as the proto3 zero value (not sent); a value of another JSON type cannot be carried and throws
 * {@link NotExpressible} naming the field.
 */
final class RequestFields {

    private final ObjectMapper json;

    RequestFields(ObjectMapper json) {
        this.json = json;
    }

    static boolean given(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && !v.isNull();
    }

    String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return "";
        }
        if (!v.isTextual()) {
            throw wrongType(field, v, "a string");
        }
        return v.textValue();
    }

    int int32(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return 0;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw wrongType(field, v, "an int32");
        }
        return v.intValue();
    }

    double number(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return 0;
        }
        if (!v.isNumber()) {
            throw wrongType(field, v, "a double");
        }
        return v.doubleValue();
    }

    boolean bool(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw wrongType(field, v, "a bool");
        }
        return v.booleanValue();
    }

    List<String> strings(JsonNode node, String field) {
        JsonNode v = node.get(field);
        List<String> out = new ArrayList<>();
        if (v == null || v.isNull()) {
            return out;
        }
        if (!v.isArray()) {
            throw wrongType(field, v, "a repeated string");
        }
        for (JsonNode e : v) {
            if (!e.isTextual()) {
                throw wrongType(field + "[]", e, "a string");
            }
            out.add(e.textValue());
        }
        return out;
    }

    /** A JSON array as {@code repeated google.protobuf.Value}. */
    List<Value> values(JsonNode node, String field) {
        JsonNode v = node.get(field);
        List<Value> out = new ArrayList<>();
        if (v == null || v.isNull()) {
            return out;
        }
        if (!v.isArray()) {
            throw wrongType(field, v, "a repeated google.protobuf.Value");
        }
        for (JsonNode e : v) {
            out.add(value(e));
        }
        return out;
    }

    Value value(JsonNode v) {
        Value.Builder b = Value.newBuilder();
        merge(v, b);
        return b.build();
    }

    /** A JSON object as a {@code google.protobuf.Struct}; null when absent. */
    Struct struct(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isObject()) {
            throw wrongType(field, v, "a google.protobuf.Struct");
        }
        Struct.Builder b = Struct.newBuilder();
        merge(v, b);
        return b.build();
    }

    private void merge(JsonNode v, com.google.protobuf.Message.Builder b) {
        try {
            JsonFormat.parser().merge(json.writeValueAsString(v), b);
        } catch (JsonProcessingException | InvalidProtocolBufferException e) {
            throw new NotExpressible("a JSON value protobuf's JsonFormat does not read: " + e.getMessage());
        }
    }

    /** An RFC 3339 string as a Timestamp; null when absent. */
    Timestamp timestamp(JsonNode node, String field) {
        String s = text(node, field);
        if (s.isEmpty()) {
            return null;
        }
        try {
            return Timestamps.parse(s);
        } catch (ParseException e) {
            throw new NotExpressible("'" + field + "' (" + s + ") is not an RFC 3339 timestamp, so no"
                    + " google.protobuf.Timestamp can carry it");
        }
    }

    /**
     * The HTTP binding's relative form of an instant ({@code "+PT5S"}: that long after the request) as a Duration;
     * null when the field is absent or not in that form.
     */
    Duration relative(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual() || !v.textValue().startsWith("+")) {
            return null;
        }
        ObjectNode wrapped = json.createObjectNode().put(field, v.textValue().substring(1));
        return iso(wrapped, field);
    }

    /** Whole milliseconds as a Duration; null when absent. */
    Duration millis(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw wrongType(field, v, "a google.protobuf.Duration of whole milliseconds");
        }
        return Durations.fromMillis(v.longValue());
    }

    /** An ISO 8601 duration ({@code PT1S}) as a Duration; null when absent. */
    Duration iso(JsonNode node, String field) {
        String s = text(node, field);
        if (s.isEmpty()) {
            return null;
        }
        try {
            java.time.Duration d = java.time.Duration.parse(s);
            return Duration.newBuilder().setSeconds(d.getSeconds()).setNanos(d.getNano()).build();
        } catch (DateTimeParseException e) {
            throw new NotExpressible("'" + field + "' (" + s + ") is not an ISO 8601 duration, so no"
                    + " google.protobuf.Duration can carry it");
        }
    }

    private static NotExpressible wrongType(String field, JsonNode v, String type) {
        return new NotExpressible("'" + field + "' is a JSON " + v.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
                + "; the message field is " + type);
    }
}
