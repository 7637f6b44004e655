package dev.steadfast.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;

/** JSON text in and out with the application's ObjectMapper; a value that cannot be written is a bug, not input. */
public final class Json {

    private Json() {
    }

    public static String write(ObjectMapper m, Object value) {
        try {
            return m.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A JSON object the server stored itself (so it is known to be an object). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> readMap(ObjectMapper m, String json) {
        try {
            return m.readValue(json, Map.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is not an object", e);
        }
    }
}
