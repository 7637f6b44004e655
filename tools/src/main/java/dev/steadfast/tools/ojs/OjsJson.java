package dev.steadfast.tools.ojs;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * The tools' one JSON mapper (Jackson): snake_case on the wire for the camelCase records of this package, their
 * null fields left out (a map's null values are written), unknown fields ignored (answers carry far more than the
 * tools read). Thread-safe.
 */
public final class OjsJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            // null fields of records are left out; null values in maps are written
            .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL,
                    JsonInclude.Include.ALWAYS))
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private OjsJson() {
    }

    /** {@code value} as JSON text; a String is taken as JSON already and returned as it is. */
    public static String write(Object value) {
        if (value instanceof String s) {
            return s;
        }
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code json} read as {@code type}; empty when it is not JSON of that shape. */
    public static <T> Optional<T> read(String json, Class<T> type) {
        if (json == null || json.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(MAPPER.readValue(json, type));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /** {@code json} as a tree; empty when it is not JSON. */
    public static Optional<JsonNode> tree(String json) {
        return read(json, JsonNode.class);
    }
}
