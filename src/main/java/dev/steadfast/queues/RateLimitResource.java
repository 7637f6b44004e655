package dev.steadfast.queues;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.limits.RateLimitPolicy;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

/**
 * Rate limit inspection (ojs-rate-limiting.md 10.1): {@code GET /ojs/v1/rate-limits/{key}} answers a key's limits
 * and its state now; 404 for a key no PUSH has named.
 */
@Path("/ojs/v1/rate-limits/{key}")
@RolesAllowed({Roles.READONLY, Roles.ADMIN})
public class RateLimitResource {

    private final RateLimits limits;
    private final ObjectMapper json;

    public RateLimitResource(RateLimits limits, ObjectMapper json) {
        this.limits = limits;
        this.json = json;
    }

    @GET
    public Uni<Response> get(@PathParam("key") String key) {
        return Uni.createFrom().item(() -> RateLimitPolicy.checkKey("key", key)).flatMap(limits::inspect)
                .map(s -> Responses.ok(json, RateLimitView.of(s)));
    }

    /** The X-RateLimit-* headers of a partition (on the 201 of a PUSH naming its key). */
    public static Response.ResponseBuilder withHeaders(Response.ResponseBuilder r, RateLimitStatus s) {
        RateLimitStatus.Headers h = s.headers();
        return r.header("X-RateLimit-Limit", h.limit()).header("X-RateLimit-Remaining", h.remaining())
                .header("X-RateLimit-Reset", h.reset());
    }
}
