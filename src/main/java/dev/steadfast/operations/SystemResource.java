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
import java.util.List;

/** Manifest, health, retry policy scopes and the event polling endpoint (ojs-http-binding.md 8, 21; ojs-events 6.4). */
@Path("/ojs")
class SystemResource {

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
            OperationsViews.Backend backend = new OperationsViews.Backend("postgres", "ok", null, null, null);
            return Uni.createFrom().item(Responses.json(json, 503, health("degraded", backend, true)));
        }
        return system.ping().map(ms -> Responses.ok(json,
                health("ok", new OperationsViews.Backend("postgres", "ok", true, ms, null), null)))
                .onFailure().recoverWithItem(e -> Responses.json(json, 503, health("degraded",
                        new OperationsViews.Backend("postgres", "unhealthy", false, null, e.getClass().getSimpleName()
                                + (e.getMessage() == null ? "" : ": " + e.getMessage())), null)));
    }

    private OperationsViews.Health health(String status, OperationsViews.Backend backend, Boolean shuttingDown) {
        return new OperationsViews.Health(status, "1.0", system.uptimeSeconds(), backend, shuttingDown);
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
        List<JobEvent.CloudEvent> out = new ArrayList<>(page.events().size());
        for (JobEvent e : page.events()) {
            out.add(JobEvent.cloudEvent(e));
        }
        return Responses.ok(json, new OperationsViews.EventPage(out, page.cursor(), page.hasMore()));
    }
}
