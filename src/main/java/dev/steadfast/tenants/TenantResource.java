package dev.steadfast.tenants;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.TenantId;
import dev.steadfast.http.Body;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * The tenant admin API (ojs-multi-tenancy.md 9.3, 10): list, statistics, and a tenant's configuration (fairness
 * weight, max_queue_depth, max_concurrency, max_scheduled, max_enqueue_rate). Dynamic: a change applies without a restart (15.1).
 */
@Path("/ojs/v1/admin/tenants")
class TenantResource {

    private final TenantService tenants;
    private final ObjectMapper json;

    public TenantResource(TenantService tenants, ObjectMapper json) {
        this.tenants = tenants;
        this.json = json;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list() {
        return tenants.list().map(all -> {
            List<TenantViews.Line> out = new ArrayList<>(all.size());
            all.forEach((id, jobs) -> out.add(new TenantViews.Line(id,
                    jobs.values().stream().mapToLong(Long::longValue).sum(), jobs)));
            return Responses.ok(json, new TenantViews.All(out));
        });
    }

    @GET
    @Path("/{id}/stats")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> stats(@PathParam("id") String id) {
        return Uni.createFrom().item(() -> TenantId.check("tenant_id", id)).flatMap(tenants::stats)
                .map(s -> Responses.ok(json, TenantViews.Stats.of(s)));
    }

    @GET
    @Path("/{id}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("id") String id) {
        return Uni.createFrom().item(() -> TenantId.checkConfigured("tenant_id", id)).flatMap(tenants::get)
                .map(c -> Responses.ok(json, new TenantViews.One(TenantViews.Config.of(c))));
    }

    /**
     * {@code {"fairness_weight": 3, "limits": {"max_queue_depth": 50000, "max_concurrency": 20, "max_scheduled":
     * 10000, "max_enqueue_rate": {"limit": 1000, "period": "PT1M"}}}}; absent (or null) fields reset to the default:
     * weight 1, no limit.
     */
    @PUT
    @Path("/{id}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> put(@PathParam("id") String id, String body) {
        return Uni.createFrom().item(() -> {
            TenantId.checkConfigured("tenant_id", id);
            Body b = Body.parse(json, body);
            TenantService.RequestedLimits limits = limits(b.object("limits"));
            return new Object[] {b.integer("fairness_weight"), limits};
        }).flatMap(v -> tenants.configure(id, (Long) v[0], (TenantService.RequestedLimits) v[1]))
                .map(c -> Responses.ok(json, new TenantViews.One(TenantViews.Config.of(c))));
    }

    /**
     * {@code {"max_queue_depth": 100, "max_concurrency": 5, ...}} (9.3): the limits alone, replaced as a whole (an
     * absent limit is removed); the weight is kept. Other fields (9.3's {@code reason}) are ignored.
     */
    @PUT
    @Path("/{id}/limits")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> putLimits(@PathParam("id") String id, String body) {
        return Uni.createFrom().item(() -> {
            TenantId.checkConfigured("tenant_id", id);
            return limits(Body.parse(json, body));
        }).flatMap(l -> tenants.find(id).flatMap(o -> tenants.configure(id,
                        o.map(c -> (long) c.weight()).orElse(null), l)))
                .map(c -> Responses.ok(json, new TenantViews.One(TenantViews.Config.of(c))));
    }

    /** A tenant's limits as sent (null: none), their types checked; TenantService checks their ranges. */
    private static TenantService.RequestedLimits limits(Body limits) {
        if (limits == null) {
            return TenantService.RequestedLimits.NONE;
        }
        Body rate = limits.object("max_enqueue_rate");
        return new TenantService.RequestedLimits(limits.integer("max_queue_depth"), limits.integer("max_concurrency"),
                limits.integer("max_scheduled"), rate == null ? null : rate.integer("limit"),
                rate == null ? null : rate.string("period", false));
    }

    @DELETE
    @Path("/{id}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> delete(@PathParam("id") String id) {
        return tenants.remove(id).map(v -> Response.noContent().build());
    }
}
