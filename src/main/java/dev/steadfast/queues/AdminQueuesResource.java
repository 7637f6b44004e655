package dev.steadfast.queues;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.limits.QueueLimits;
import dev.steadfast.domain.retry.Iso8601Duration;
import dev.steadfast.domain.retry.PolicyViolation;
import dev.steadfast.http.Body;
import dev.steadfast.http.Pagination;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.stats.JobCounts;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Queues in the admin API's shapes (ojs-admin-api.md 6.1 to 6.4): the list with counts per state, one queue,
 * pause and resume. Same operations as {@link QueueResource} and the console, one implementation.
 */
@Path("/ojs/v1/admin/queues")
class AdminQueuesResource {

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
            List<AdminQueueViews.Queue> items = new ArrayList<>(all.size());
            all.forEach(q -> items.add(view(q)));
            return Responses.ok(json, new AdminQueueViews.QueueList(items,
                    new Pagination(items.size(), 1, Math.max(1, items.size()))));
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
        return queues.pause(name, "admin-api").map(q -> Responses.ok(json,
                new AdminQueueViews.Changed(q.name(), true, Timestamps.format(q.pausedAt()), null)));
    }

    @POST
    @Path("/{name}/resume")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> resume(@PathParam("name") String name) {
        return queues.resume(name, "admin-api").map(q -> Responses.ok(json,
                new AdminQueueViews.Changed(q.name(), false, null, Timestamps.format(queues.now()))));
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
            Duration period = null;
            if (rate != null) {
                Long l = rate.integer("limit");
                if (l == null || l < 0 || l > QueueLimits.MAX_RATE) {
                    throw OjsException.invalidField("rate.limit", "'rate.limit' must be a whole number from 0 to "
                            + QueueLimits.MAX_RATE + ".", "0 to " + QueueLimits.MAX_RATE, String.valueOf(l));
                }
                limit = l.intValue();
                String p = rate.string("period", true);
                try {
                    period = Iso8601Duration.parse("rate.period", p);
                } catch (PolicyViolation e) {
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

    private static AdminQueueViews.Limits limitsView(String queue, QueueLimits l) {
        return new AdminQueueViews.Limits(queue, l.concurrency(), l.rateLimit() == null ? null
                : new AdminQueueViews.Rate(l.rateLimit(),
                        Iso8601Duration.format(l.ratePeriod()), "sliding"));
    }

    private static AdminQueueViews.Queue view(QueueStats q) {
        return new AdminQueueViews.Queue(q.name(), q.paused() ? "paused" : "active",
                JobCounts.of(q::count, q.deadLetters()), q.paused(), Timestamps.format(q.pausedAt()),
                Timestamps.format(q.oldestAvailableAt()), Timestamps.format(q.createdAt()));
    }
}
