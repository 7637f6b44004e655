package dev.steadfast.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.service.Json;
import jakarta.ws.rs.core.Response;

/**
 * Builds JSON responses. Bodies are serialized here rather than by content negotiation, so every answer is
 * {@code application/openjobspec+json} whatever the client's Accept header says (ojs-http-binding.md 4.3).
 */
final class Responses {

    private Responses() {
    }

    static Response json(ObjectMapper m, int status, Object body) {
        return Response.status(status).type(HttpFrame.OJS_MEDIA_TYPE).entity(Json.write(m, body)).build();
    }

    static Response ok(ObjectMapper m, Object body) {
        return json(m, 200, body);
    }
}
