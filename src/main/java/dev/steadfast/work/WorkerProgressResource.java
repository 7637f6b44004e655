package dev.steadfast.work;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.http.Body;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.util.UUID;

/**
 * The JavaScript SDK's progress report, {@code POST /ojs/v1/workers/progress} with {@code {"job_id",
 * "percentage": 0..100, "message", "data"}} ({@code "progress": 0..1} also accepted): the same report as
 * {@code PUT /ojs/v1/jobs/{id}/progress} ({@link ProgressResource}).
 */
@Path("/ojs/v1/workers/progress")
@RolesAllowed({Roles.WORKER, Roles.ADMIN})
class WorkerProgressResource {

    private final ProgressService progress;
    private final ObjectMapper json;

    public WorkerProgressResource(ProgressService progress, ObjectMapper json) {
        this.progress = progress;
        this.json = json;
    }

    @POST
    public Uni<Response> report(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> {
            UUID id = WorkerResource.jobIdField(b);
            boolean percentage = b.has("percentage");
            return progress.report(id, WorkerResource.optionalWorkerId(b), ProgressResource.report(b,
                    percentage ? "percentage" : "progress", percentage ? 100.0 : 1.0));
        }).map(v -> Responses.ok(json, ProgressView.of(v)));
    }
}
