package dev.steadfast.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.service.QueueService;
import dev.steadfast.service.SystemService;
import dev.steadfast.service.Timestamps;
import dev.steadfast.store.QueueRow;
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
 * Queues in the HTTP binding's shapes (ojs-http-binding.md 11.1, 11.3, 11.4): the list, pause and resume. A
 * paused queue still accepts jobs (they accumulate as available, as the admin API says) rather than answering
 * 422 queue_paused; see README "Protocol notes".
 */
@Path("/ojs/v1/queues")
public class QueueResource {

    private final SystemService system;
    private final QueueService queues;
    private final ObjectMapper json;

    public QueueResource(SystemService system, QueueService queues, ObjectMapper json) {
        this.system = system;
        this.queues = queues;
        this.json = json;
    }

    @GET
    public Uni<Response> list() {
        return system.queues().map(rows -> {
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

    @POST
    @Path("/{name}/pause")
    public Uni<Response> pause(@PathParam("name") String name) {
        return queues.pause(name, "api").map(q -> {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("queue", q.name());
            v.put("status", "paused");
            v.put("paused_at", Timestamps.format(q.pausedAt()));
            return Responses.ok(json, v);
        });
    }

    @POST
    @Path("/{name}/resume")
    public Uni<Response> resume(@PathParam("name") String name) {
        return queues.resume(name, "api").map(q -> {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("queue", q.name());
            v.put("status", "active");
            v.put("resumed_at", Timestamps.format(queues.now()));
            return Responses.ok(json, v);
        });
    }
}
