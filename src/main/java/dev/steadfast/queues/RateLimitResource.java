package dev.steadfast.queues;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.limits.RateLimitPolicy;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

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
                .map(s -> Responses.ok(json, view(s)));
    }

    static Map<String, Object> view(RateLimitStatus s) {
        RateLimitPolicy p = s.policy();
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("key", p.key());
        Map<String, Object> conc = null;
        if (p.concurrency() != null) {
            conc = new LinkedHashMap<>();
            conc.put("limit", p.concurrency());
            conc.put("active", s.active());
            conc.put("available", Math.max(0, p.concurrency() - s.active()));
        }
        v.put("concurrency", conc);
        Map<String, Object> rate = null;
        if (p.rate() != null) {
            rate = new LinkedHashMap<>();
            rate.put("limit", p.rate().limit());
            rate.put("period", p.rate().period().toString());
            rate.put("current_count", s.counted());
            rate.put("window_resets_at", time(s.windowResetsAt()));
        }
        v.put("rate", rate);
        Map<String, Object> throttle = null;
        if (p.throttle() != null) {
            throttle = new LinkedHashMap<>();
            throttle.put("limit", p.throttle().limit());
            throttle.put("period", p.throttle().period().toString());
            throttle.put("next_allowed_at", time(s.nextStartAt()));
        }
        v.put("throttle", throttle);
        v.put("waiting_count", s.waiting());
        return v;
    }

    /** The X-RateLimit-* headers of a partition (on the 201 of a PUSH naming its key). */
    public static Response.ResponseBuilder withHeaders(Response.ResponseBuilder r, RateLimitStatus s) {
        RateLimitStatus.Headers h = s.headers();
        return r.header("X-RateLimit-Limit", h.limit()).header("X-RateLimit-Remaining", h.remaining())
                .header("X-RateLimit-Reset", h.reset());
    }

    private static String time(Instant i) {
        return i == null ? null : Timestamps.format(i);
    }
}
