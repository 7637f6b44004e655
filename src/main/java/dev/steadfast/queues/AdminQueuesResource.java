package dev.steadfast.queues;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.limits.QueueLimits;
import dev.steadfast.http.Body;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.stats.QueueStats;
import dev.steadfast.stats.StatsService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Queues in the admin API's shapes (ojs-admin-api.md 6.1 to 6.4): the list with counts per state, one queue,
 * pause and resume. Same operations as {@link QueueResource} and the console, one implementation.
 */
@Path("/ojs/v1/admin/queues")
public class AdminQueuesResource {

    private final StatsService stats;
    private final QueueService queues;
    private final ObjectMapper json;
    private final QueueLimiter limiter;

    public AdminQueuesResource(StatsService stats, QueueService queues, ObjectMapper json, QueueLimiter limiter) {
        this.limiter = limiter;
        this.stats = stats;
        this.queues = queues;
        this.json = json;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list() {
        return stats.queues().map(all -> {
            List<Map<String, Object>> items = new ArrayList<>(all.size());
            all.forEach(q -> items.add(view(q)));
            return Responses.ok(json, Map.of("items", items,
                    "pagination", Map.of("total", items.size(), "page", 1, "per_page", Math.max(1, items.size()))));
        });
    }

    @GET
    @Path("/{name}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("name") String name) {
        JobRules.checkQueue(name);
        return stats.queues().map(all -> all.stream().filter(q -> q.name().equals(name)).findFirst()
                .map(q -> Responses.ok(json, view(q)))
                .orElseThrow(() -> OjsException.notFound("queue", name)));
    }

    @POST
    @Path("/{name}/pause")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> pause(@PathParam("name") String name) {
        return queues.pause(name, "admin-api").map(q -> {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("name", q.name());
            v.put("paused", true);
            v.put("paused_at", Timestamps.format(q.pausedAt()));
            return Responses.ok(json, v);
        });
    }

    @POST
    @Path("/{name}/resume")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> resume(@PathParam("name") String name) {
        return queues.resume(name, "admin-api").map(q -> {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("name", q.name());
            v.put("paused", false);
            v.put("resumed_at", Timestamps.format(queues.now()));
            return Responses.ok(json, v);
        });
    }

    /**
     * Queue-level limits (ojs-rate-limiting.md 7.2): {@code {"concurrency": n, "rate": {"limit": n, "period":
     * "PT1M"}}}; a field left out or null removes that limit. Enforced on every instance from the next FETCH.
     */
    @PUT
    @Path("/{name}/rate-limit")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> setLimits(@PathParam("name") String name, String body) {
        return Uni.createFrom().item(() -> {
            Body b = Body.parse(json, body);
            Long concurrency = b.integer("concurrency");
            Body rate = b.object("rate");
            Integer limit = null;
            java.time.Duration period = null;
            if (rate != null) {
                Long l = rate.integer("limit");
                if (l == null || l < 0 || l > QueueLimits.MAX_RATE) {
                    throw OjsException.invalidField("rate.limit", "'rate.limit' must be a whole number from 0 to "
                            + QueueLimits.MAX_RATE + ".", "0 to " + QueueLimits.MAX_RATE, String.valueOf(l));
                }
                limit = l.intValue();
                String p = rate.string("period", true);
                try {
                    period = dev.steadfast.domain.retry.Iso8601Duration.parse("rate.period", p);
                } catch (dev.steadfast.domain.retry.PolicyViolation e) {
                    throw OjsException.invalidField("rate.period", "'rate.period' must be an ISO 8601 duration such"
                            + " as PT1M.", "ISO 8601 duration", p);
                }
            }
            if (concurrency != null && (concurrency < 0 || concurrency > Integer.MAX_VALUE)) {
                throw OjsException.invalidField("concurrency", "'concurrency' must be 0 or more.", "0 or more",
                        String.valueOf(concurrency));
            }
            return new QueueLimits(limit, period, concurrency == null ? null : concurrency.intValue());
        }).flatMap(l -> limiter.set(name, l)).map(l -> Responses.ok(json, limitsView(name, l)));
    }

    @GET
    @Path("/{name}/rate-limit")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> getLimits(@PathParam("name") String name) {
        return limiter.get(name).map(l -> Responses.ok(json, limitsView(name, l)));
    }

    @DELETE
    @Path("/{name}/rate-limit")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> clearLimits(@PathParam("name") String name) {
        return limiter.set(name, new QueueLimits(null, null, null)).map(l -> Responses.ok(json, limitsView(name, l)));
    }

    private static Map<String, Object> limitsView(String queue, QueueLimits l) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("queue", queue);
        v.put("concurrency", l.concurrency());
        if (l.rateLimit() == null) {
            v.put("rate", null);
        } else {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("limit", l.rateLimit());
            r.put("period", dev.steadfast.domain.retry.Iso8601Duration.format(l.ratePeriod()));
            r.put("window", "sliding");
            v.put("rate", r);
        }
        return v;
    }

    private static Map<String, Object> view(QueueStats q) {
        Map<String, Object> counts = new LinkedHashMap<>();
        for (JobState s : JobState.values()) {
            counts.put(s.wire(), q.count(s));
        }
        counts.put("dead_letter", q.deadLetters());
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", q.name());
        v.put("state", q.paused() ? "paused" : "active");
        v.put("counts", counts);
        v.put("paused", q.paused());
        v.put("paused_at", Timestamps.format(q.pausedAt()));
        v.put("oldest_available_at", Timestamps.format(q.oldestAvailableAt()));
        v.put("created_at", Timestamps.format(q.createdAt()));
        return v;
    }
}
