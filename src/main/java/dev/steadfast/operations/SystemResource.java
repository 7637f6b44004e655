package dev.steadfast.operations;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.events.EventLog;
import dev.steadfast.events.JobEvent;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.jobs.RetryPolicies;
import dev.steadfast.work.Draining;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Manifest, health, retry policy scopes and the event polling endpoint (ojs-http-binding.md 8, 21; ojs-events 6.4). */
@Path("/ojs")
public class SystemResource {

    private final SystemService system;
    private final RetryPolicies policies;
    private final EventLog events;
    private final Manifest manifest;
    private final ObjectMapper json;
    private final Draining draining;

    public SystemResource(SystemService system, RetryPolicies policies, EventLog events, Manifest manifest,
                          ObjectMapper json, Draining draining) {
        this.draining = draining;
        this.system = system;
        this.policies = policies;
        this.events = events;
        this.manifest = manifest;
        this.json = json;
    }

    @GET
    @Path("/manifest")
    @PermitAll
    public Response manifest() {
        return Responses.ok(json, manifest.body());
    }

    @GET
    @Path("/v1/health")
    @PermitAll
    public Uni<Response> health() {
        if (draining.serverDraining()) {
            Map<String, Object> backend = new LinkedHashMap<>();
            backend.put("type", "postgres");
            backend.put("status", "ok");
            Map<String, Object> out = health("degraded", backend);
            out.put("shutting_down", true);
            return Uni.createFrom().item(Responses.json(json, 503, out));
        }
        return system.ping().map(ms -> {
            Map<String, Object> backend = new LinkedHashMap<>();
            backend.put("type", "postgres");
            backend.put("status", "ok");
            backend.put("connected", true);
            backend.put("latency_ms", ms);
            return Responses.ok(json, health("ok", backend));
        }).onFailure().recoverWithItem(e -> {
            Map<String, Object> backend = new LinkedHashMap<>();
            backend.put("type", "postgres");
            backend.put("status", "unhealthy");
            backend.put("connected", false);
            backend.put("error", e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
            return Responses.json(json, 503, health("degraded", backend));
        });
    }

    private Map<String, Object> health(String status, Map<String, Object> backend) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", status);
        out.put("version", "1.0");
        out.put("uptime_seconds", system.uptimeSeconds());
        out.put("backend", backend);
        return out;
    }

    /** The retry policy scopes in force (extension "retry-policy-scopes"): default, per queue, per type, clamp. */
    @GET
    @Path("/v1/retry-policies")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Response retryPolicies() {
        return Responses.ok(json, policies.describe());
    }

    @GET
    @Path("/v1/events")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Response events(@QueryParam("after") String after, @QueryParam("types") String types,
                           @QueryParam("queues") String queues, @QueryParam("job_types") String jobTypes,
                           @QueryParam("limit") String limit) {
        int n = Params.integer("limit", limit, 100, 1, 1000);
        EventLog.Page page = events.list(after, Params.csv(types), Params.csv(queues), Params.csv(jobTypes), n);
        List<Map<String, Object>> out = new ArrayList<>(page.events().size());
        for (JobEvent e : page.events()) {
            out.add(JobEvent.cloudEvent(e));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("events", out);
        body.put("cursor", page.cursor());
        body.put("has_more", page.hasMore());
        return Responses.ok(json, body);
    }
}
