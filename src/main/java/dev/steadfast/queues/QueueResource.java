package dev.steadfast.queues;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.QueueBound;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.store.queues.QueueRow;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Queues in the HTTP binding's shapes (ojs-http-binding.md 11.1 to 11.4): the list, stats, pause and resume. A
 * paused queue still accepts jobs (they accumulate as available, as the admin API says) rather than answering
 * 422 queue_paused; see README "Protocol notes".
 */
@Path("/ojs/v1/queues")
public class QueueResource {

    private final QueueService queues;
    private final ObjectMapper json;
    private final Backpressure backpressure;

    public QueueResource(QueueService queues, ObjectMapper json, Backpressure backpressure) {
        this.backpressure = backpressure;
        this.queues = queues;
        this.json = json;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list() {
        return queues.list().map(rows -> {
            List<Map<String, Object>> out = new ArrayList<>(rows.size());
            for (QueueRow q : rows) {
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("name", q.name());
                v.put("status", q.paused() ? "paused" : "active");
                v.put("paused", q.paused());
                v.put("created_at", Timestamps.format(q.createdAt()));
                out.add(v);
            }
            Map<String, Object> page = new LinkedHashMap<>();
            page.put("total", out.size());
            page.put("limit", out.size());
            page.put("offset", 0);
            page.put("has_more", false);
            return Responses.ok(json, Map.of("queues", out, "pagination", page));
        });
    }

    /**
     * Queue statistics (ojs-http-binding.md 11.2): {@code queue} is the OpenAPI {@code QueueStatsResponse} object
     * (name, paused and the count of every state), {@code stats} the binding document's flat counts; both are
     * counted now, not cached.
     */
    @GET
    @Path("/{name}/stats")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> stats(@PathParam("name") String name) {
        return queues.depth(name).flatMap(d -> backpressure.bound(d.queue().name()).map(bound -> {
            Map<String, Object> q = queueObject(d.queue().name(), d.queue().paused());
            Map<String, Object> counts = new LinkedHashMap<>();
            for (JobState s : JobState.values()) {
                counts.put(s.wire(), d.counts().byState().getOrDefault(s, 0L));
            }
            counts.put("dead_letter", d.counts().deadLetters());
            q.putAll(counts);
            q.put("paused_at", Timestamps.format(d.queue().pausedAt()));
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("queue", q);
            v.put("status", d.queue().paused() ? "paused" : "active");
            // ojs-backpressure.md 7: the waiting jobs and the bound they are held to
            Map<String, Object> stats = new LinkedHashMap<>();
            stats.put("queue", d.queue().name());
            long depth = 0;
            for (JobState s : new JobState[] {JobState.AVAILABLE, JobState.SCHEDULED, JobState.RETRYABLE,
                JobState.PENDING}) {
                depth += d.counts().byState().getOrDefault(s, 0L);
            }
            stats.put("depth", depth);
            stats.put("max_depth", bound.map(QueueBound::maxDepth).orElse(null));
            stats.putAll(counts);
            v.put("stats", stats);
            v.put("computed_at", Timestamps.format(d.computedAt()));
            return Responses.ok(json, v);
        }));
    }

    /** Pause (11.3): the queue object of the OpenAPI {@code QueuePauseResumeResponse}, plus when. */
    @POST
    @Path("/{name}/pause")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> pause(@PathParam("name") String name) {
        return queues.pause(name, "api").map(q -> {
            Map<String, Object> v = queueObject(q.name(), true);
            v.put("paused_at", Timestamps.format(q.pausedAt()));
            return Responses.ok(json, Map.of("queue", v));
        });
    }

    /** Resume (11.4), the same shape as pause. */
    @POST
    @Path("/{name}/resume")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> resume(@PathParam("name") String name) {
        return queues.resume(name, "api").map(q -> {
            Map<String, Object> v = queueObject(q.name(), false);
            v.put("resumed_at", Timestamps.format(queues.now()));
            return Responses.ok(json, Map.of("queue", v));
        });
    }

    private static Map<String, Object> queueObject(String name, boolean paused) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", name);
        v.put("status", paused ? "paused" : "active");
        v.put("paused", paused);
        return v;
    }
}
