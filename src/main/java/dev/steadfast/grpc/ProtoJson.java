package dev.steadfast.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Duration;
import com.google.protobuf.ListValue;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import dev.steadfast.domain.retry.Iso8601Duration;
import dev.steadfast.domain.retry.PolicyViolation;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * The protobuf well-known types the binding uses, to and from the JSON trees of the HTTP binding (ojs-grpc-binding.md
 * 12.2): {@code Value} and {@code Struct} are JSON values and objects, {@code Timestamp} an instant,
 * {@code Duration} milliseconds. A protobuf number is a double: one that is a whole number (within 2^53) becomes a
 * JSON integer, so {@code 3} sent over gRPC is the {@code 3} a JSON client sends, not {@code 3.0}.
 */
final class ProtoJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final double EXACT = 9007199254740992d; // 2^53

    private ProtoJson() {
    }

    static JsonNode node(Value v) {
        return switch (v.getKindCase()) {
            case NULL_VALUE, KIND_NOT_SET -> NODES.nullNode();
            case BOOL_VALUE -> NODES.booleanNode(v.getBoolValue());
            case STRING_VALUE -> NODES.textNode(v.getStringValue());
            case NUMBER_VALUE -> number(v.getNumberValue());
            case STRUCT_VALUE -> node(v.getStructValue());
            case LIST_VALUE -> array(v.getListValue().getValuesList());
        };
    }

    private static JsonNode number(double d) {
        return d == Math.rint(d) && Math.abs(d) <= EXACT ? NODES.numberNode((long) d) : NODES.numberNode(d);
    }

    static ObjectNode node(Struct s) {
        ObjectNode o = NODES.objectNode();
        for (Map.Entry<String, Value> e : s.getFieldsMap().entrySet()) {
            o.set(e.getKey(), node(e.getValue()));
        }
        return o;
    }

    static ArrayNode array(List<Value> values) {
        ArrayNode a = NODES.arrayNode(values.size());
        values.forEach(v -> a.add(node(v)));
        return a;
    }

    static Value value(JsonNode n) {
        Value.Builder v = Value.newBuilder();
        if (n == null || n.isNull() || n.isMissingNode()) {
            return v.setNullValue(NullValue.NULL_VALUE).build();
        }
        if (n.isBoolean()) {
            return v.setBoolValue(n.booleanValue()).build();
        }
        if (n.isNumber()) {
            return v.setNumberValue(n.doubleValue()).build();
        }
        if (n.isTextual()) {
            return v.setStringValue(n.textValue()).build();
        }
        if (n.isArray()) {
            ListValue.Builder l = ListValue.newBuilder();
            n.forEach(e -> l.addValues(value(e)));
            return v.setListValue(l).build();
        }
        if (n.isObject()) {
            return v.setStructValue(struct(n)).build();
        }
        return v.setStringValue(n.asText()).build(); // binary or POJO nodes: never in parsed JSON
    }

    static Struct struct(JsonNode object) {
        Struct.Builder s = Struct.newBuilder();
        object.fields().forEachRemaining(e -> s.putFields(e.getKey(), value(e.getValue())));
        return s.build();
    }

    /** The JSON text {@code json} (stored JSON, well-formed), as a tree; null for null. */
    static JsonNode read(ObjectMapper m, String json) {
        if (json == null) {
            return null;
        }
        try {
            return m.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("stored JSON is not JSON", e);
        }
    }

    static Timestamp timestamp(Instant i) {
        return Timestamp.newBuilder().setSeconds(i.getEpochSecond()).setNanos(i.getNano()).build();
    }

    /** An RFC 3339 timestamp of the HTTP binding's envelope as a protobuf one; null for null. */
    static Timestamp timestamp(String rfc3339) {
        if (rfc3339 == null) {
            return null;
        }
        try {
            return timestamp(OffsetDateTime.parse(rfc3339).toInstant());
        } catch (DateTimeParseException e) {
            return null; // stored history written by a worker: left out rather than failing the whole answer
        }
    }

    static Instant instant(Timestamp t) {
        return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
    }

    static Duration duration(long millis) {
        return Duration.newBuilder().setSeconds(Math.floorDiv(millis, 1000))
                .setNanos((int) Math.floorMod(millis, 1000) * 1_000_000).build();
    }

    /**
     * An ISO 8601 duration of the HTTP binding's JSON ({@code PT1.5S}, {@code P1M}) as a protobuf one, read by the
     * parser PUSH accepted it with ({@link Iso8601Duration}: months and years included, which
     * {@code java.time.Duration} refuses); null for null or not one.
     */
    static Duration duration(String iso) {
        if (iso == null) {
            return null;
        }
        try {
            java.time.Duration d = Iso8601Duration.parse("duration", iso);
            return Duration.newBuilder().setSeconds(d.getSeconds()).setNanos(d.getNano()).build();
        } catch (PolicyViolation e) {
            return null; // a stored policy is well-formed; anything else is left out rather than failing the answer
        }
    }

    static long millis(Duration d) {
        return d.getSeconds() * 1000 + d.getNanos() / 1_000_000;
    }

    /** As an ISO 8601 duration ({@code PT1.5S}), the form the HTTP binding's retry policy and unique period take. */
    static String iso(Duration d) {
        return java.time.Duration.ofSeconds(d.getSeconds(), d.getNanos()).toString();
    }
}
