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

    /**
     * UTF-8 JSON bytes: a response body. Given as bytes, RESTEasy Reactive writes it whole with a Content-Length;
     * given as a String it goes through the Jackson writer's output stream, which sends a large body (a batch of
     * 1,000 jobs is about 540 kB) as 8 kB chunks, each written and flushed on its own.
     */
    public static byte[] bytes(ObjectMapper m, Object value) {
        try {
            return m.writeValueAsBytes(value);
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
