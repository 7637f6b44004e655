package dev.steadfast.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.service.QueueService;
import dev.steadfast.service.QueueStats;
import dev.steadfast.service.StatsService;
import dev.steadfast.service.Timestamps;
import io.smallrye.mutiny.Uni;
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
 * Queues in the admin API's shapes (ojs-admin-api.md 6.1 to 6.4): the list with counts per state, one queue,
 * pause and resume. Same operations as {@link QueueResource} and the console, one implementation.
 */
@Path("/ojs/v1/admin/queues")
public class AdminQueuesResource {

    private final StatsService stats;
    private final QueueService queues;
    private final ObjectMapper json;

    public AdminQueuesResource(StatsService stats, QueueService queues, ObjectMapper json) {
        this.stats = stats;
        this.queues = queues;
        this.json = json;
    }

    @GET
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
    public Uni<Response> get(@PathParam("name") String name) {
        JobRules.checkQueue(name);
        return stats.queues().map(all -> all.stream().filter(q -> q.name().equals(name)).findFirst()
                .map(q -> Responses.ok(json, view(q)))
                .orElseThrow(() -> OjsException.notFound("queue", name)));
    }

    @POST
    @Path("/{name}/pause")
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
    public Uni<Response> resume(@PathParam("name") String name) {
        return queues.resume(name, "admin-api").map(q -> {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("name", q.name());
            v.put("paused", false);
            v.put("resumed_at", Timestamps.format(queues.now()));
            return Responses.ok(json, v);
        });
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
