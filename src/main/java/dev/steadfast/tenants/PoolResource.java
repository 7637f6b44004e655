package dev.steadfast.tenants;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.Body;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.model.PoolRow;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** Worker pools (ojs-fair-scheduling.md 10.1): list, create or replace, read, delete. */
@Path("/ojs/v1/admin/pools")
class PoolResource {

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record PoolView(String name, String strategy, List<String> queues,
                    JsonNode weights, Integer concurrency, String createdAt,
                    String updatedAt) {
        static PoolView of(ObjectMapper json, PoolRow p) {
            JsonNode w;
            try {
                w = json.readTree(p.weightsJson());
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("scheduling_pools.weights is jsonb", e);
            }
            return new PoolView(p.name(), p.strategy(), p.queues(), w, p.concurrency(),
                    Timestamps.format(p.createdAt()), Timestamps.format(p.updatedAt()));
        }
    }

    record One(PoolView pool) {
    }

    record All(List<PoolView> items) {
    }

    private final SchedulingService scheduling;
    private final ObjectMapper json;

    public PoolResource(SchedulingService scheduling, ObjectMapper json) {
        this.scheduling = scheduling;
        this.json = json;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list() {
        return scheduling.pools().map(ps -> Responses.ok(json, new All(ps.stream().map(p -> PoolView.of(json, p)).toList())));
    }

    @GET
    @Path("/{name}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("name") String name) {
        return Uni.createFrom().deferred(() -> scheduling.pool(name))
                .map(p -> Responses.ok(json, new One(PoolView.of(json, p))));
    }

    @PUT
    @Path("/{name}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> put(@PathParam("name") String name, String body) {
        return Uni.createFrom().item(() -> scheduling.parse(name, Body.parse(json, body)))
                .flatMap(d -> scheduling.save(name, d)).map(p -> Responses.ok(json, new One(PoolView.of(json, p))));
    }

    @DELETE
    @Path("/{name}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> delete(@PathParam("name") String name) {
        return Uni.createFrom().deferred(() -> scheduling.delete(name)).map(v -> Response.noContent().build());
    }
}
