package dev.steadfast.checkpoints;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

/**
 * A job's checkpoint (extension {@code durable-execution}, ojs-durable-execution.md 4 and 7):
 * {@code POST} (the spec's verb) or {@code PUT} (the Java SDK's) {@code /ojs/v1/jobs/{id}/checkpoint} with
 * {@code {"state": ..., "worker_id"?}} saves it, {@code GET} reads it, {@code DELETE} removes it. The JavaScript
 * SDK's routes are {@link CheckpointSdkResource}.
 */
@Path("/ojs/v1/jobs/{id}/checkpoint")
class CheckpointResource {

    private final CheckpointService checkpoints;
    private final ObjectMapper json;

    public CheckpointResource(CheckpointService checkpoints, ObjectMapper json) {
        this.checkpoints = checkpoints;
        this.json = json;
    }

    @POST
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<Response> save(@PathParam("id") String id, String body) {
        return Uni.createFrom().item(() -> CheckpointRequest.from(Body.parse(json, body)))
                .flatMap(s -> checkpoints.save(Params.jobId(id), s))
                .map(s -> Responses.ok(json, CheckpointViews.Saved.of(s)));
    }

    @PUT
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<Response> put(@PathParam("id") String id, String body) {
        return save(id, body);
    }

    @GET
    @RolesAllowed({Roles.WORKER, Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("id") String id) {
        return Uni.createFrom().item(() -> Params.jobId(id)).flatMap(checkpoints::get)
                .map(v -> Responses.ok(json, CheckpointViews.Checkpoint.of(v)));
    }

    @DELETE
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<Response> delete(@PathParam("id") String id) {
        return Uni.createFrom().item(() -> Params.jobId(id)).flatMap(checkpoints::delete)
                .map(d -> Responses.ok(json, new CheckpointViews.Deleted(d, id)));
    }
}
