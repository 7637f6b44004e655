package dev.steadfast.checkpoints;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

/**
 * The JavaScript SDK's checkpoint routes ({@code DurableContext}): {@code POST /ojs/v1/checkpoints/{id}} with
 * {@code {"state", "step_index", "metadata"}} saves, {@code DELETE} removes, {@code GET .../resume} answers
 * {@code {"has_checkpoint", "checkpoint"}}. The same checkpoint as {@link CheckpointResource}'s.
 */
@Path("/ojs/v1/checkpoints/{id}")
class CheckpointSdkResource {

    private final CheckpointService checkpoints;
    private final CheckpointResource spec;
    private final ObjectMapper json;

    public CheckpointSdkResource(CheckpointService checkpoints, CheckpointResource spec, ObjectMapper json) {
        this.checkpoints = checkpoints;
        this.spec = spec;
        this.json = json;
    }

    /** As {@code POST /ojs/v1/jobs/{id}/checkpoint}: the same request, answer and refusals. */
    @POST
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<Response> save(@PathParam("id") String id, String body) {
        return spec.save(id, body);
    }

    /** As {@code DELETE /ojs/v1/jobs/{id}/checkpoint}. */
    @DELETE
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<Response> delete(@PathParam("id") String id) {
        return spec.delete(id);
    }

    @GET
    @Path("/resume")
    @RolesAllowed({Roles.WORKER, Roles.READONLY, Roles.ADMIN})
    public Uni<Response> resume(@PathParam("id") String id) {
        return Uni.createFrom().item(() -> Params.jobId(id)).flatMap(checkpoints::find)
                .map(v -> Responses.ok(json, CheckpointViews.Resume.of(v)));
    }
}
