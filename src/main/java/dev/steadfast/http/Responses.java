package dev.steadfast.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.Response;

/**
 * Builds JSON responses. Bodies are serialized here rather than by content negotiation, so every answer is
 * {@code application/openjobspec+json} whatever the client's Accept header says (ojs-http-binding.md 4.3).
 */
public final class Responses {

    private Responses() {
    }

    public static Response json(ObjectMapper m, int status, Object body) {
        return Response.status(status).type(HttpFrame.OJS_MEDIA_TYPE).entity(Json.bytes(m, body)).build();
    }

    public static Response ok(ObjectMapper m, Object body) {
        return json(m, 200, body);
    }
}
