package dev.steadfast.work;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.WorkerId;
import dev.steadfast.http.Pagination;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.maintenance.WorkerTimeoutConfig;
import dev.steadfast.model.WorkerRow;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Workers (ojs-admin-api.md section 9): the known workers, and the operator's directives, delivered in each
 * worker's next heartbeat response: quiet (stop fetching), terminate (shut down), resume (running again).
 */
@Path("/ojs/v1/admin/workers")
class AdminWorkersResource {

    private final HeartbeatService heartbeats;
    private final WorkerTimeoutConfig config;
    private final Clock clock;
    private final ObjectMapper json;

    public AdminWorkersResource(HeartbeatService heartbeats, WorkerTimeoutConfig config,
                                Clock clock, ObjectMapper json) {
        this.heartbeats = heartbeats;
        this.config = config;
        this.clock = clock;
        this.json = json;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list() {
        Instant staleBefore = clock.instant().minus(config.heartbeatTimeout());
        return heartbeats.workers(500).map(rows -> {
            List<WorkerList.Item> items = new ArrayList<>(rows.size());
            int running = 0, quiet = 0, stale = 0;
            for (WorkerRow w : rows) {
                boolean isStale = w.lastSeen().isBefore(staleBefore);
                String state = isStale ? "stale" : w.directive();
                running += "running".equals(state) ? 1 : 0;
                quiet += "quiet".equals(state) ? 1 : 0;
                stale += isStale ? 1 : 0;
                items.add(new WorkerList.Item(w.id(), w.hostname(), state, w.directive(), w.queues(), w.activeJobs(),
                        Timestamps.format(w.firstSeen()), Timestamps.format(w.lastSeen())));
            }
            return Responses.ok(json, new WorkerList(items, new WorkerList.Summary(rows.size(), running, quiet, stale),
                    new Pagination(rows.size(), 1, 500)));
        });
    }

    @POST
    @Path("/{id}/quiet")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> quiet(@PathParam("id") String id) {
        return direct(id, "quiet");
    }

    @POST
    @Path("/{id}/terminate")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> terminate(@PathParam("id") String id) {
        return direct(id, "terminate");
    }

    @POST
    @Path("/{id}/resume")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> resume(@PathParam("id") String id) {
        return direct(id, "running");
    }

    private Uni<Response> direct(String id, String directive) {
        // the directive creates the worker's row when it was never heard from: the same rule as a worker's own id
        WorkerId.check("id", id);
        return heartbeats.direct(id, directive).map(v -> Responses.ok(json,
                new WorkerList.Directed(id, directive)));
    }
}
