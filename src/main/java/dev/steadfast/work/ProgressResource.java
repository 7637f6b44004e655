package dev.steadfast.work;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.Progress;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

/**
 * Progress (extension {@code progress}, ojs-progress.md 6-7): {@code PUT /ojs/v1/jobs/{id}/progress} with
 * {@code {"progress": 0..1, "message", "data": {...}, "checkpoint": {...}, "worker_id"}} and
 * {@code GET /ojs/v1/jobs/{id}/progress}; {@code POST /ojs/v1/workers/progress} with {@code {"job_id",
 * "percentage": 0..100, ...}} is the JavaScript SDK's form of the same report.
 */
@Path("/ojs/v1/jobs/{id}/progress")
class ProgressResource {

    /** Longest message kept (the column's CHECK). */
    static final int MAX_MESSAGE = 1000;

    private final ProgressService progress;
    private final ObjectMapper json;

    public ProgressResource(ProgressService progress, ObjectMapper json) {
        this.progress = progress;
        this.json = json;
    }

    @PUT
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<Response> report(@PathParam("id") String id, String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b ->
                progress.report(Params.jobId(id), WorkerResource.optionalWorkerId(b), report(b, "progress", 1.0)))
                .map(v -> Responses.ok(json, ProgressView.of(v)));
    }

    @GET
    @RolesAllowed({Roles.PRODUCER, Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("id") String id) {
        return progress.get(Params.jobId(id)).map(v -> Responses.ok(json, ProgressView.of(v)));
    }

    /** The report in {@code b}; {@code field} holds a number on a scale of 0 to {@code scale}. */
    static ProgressService.Report report(Body b, String field, double scale) {
        JsonNode v = b.raw(field);
        Double value = null;
        if (v != null) {
            if (!v.isNumber() || !Double.isFinite(v.doubleValue())) {
                throw OjsException.invalidField(field, "'" + field + "' must be a number from 0 to "
                        + (scale == 1.0 ? "1" : "100") + " (values outside are clamped).", "number", Body.kind(v));
            }
            value = scale == 1.0 ? Progress.clamp(v.doubleValue()) : Progress.fromPercentage(v.doubleValue());
        }
        Body data = b.object("data");
        Body checkpoint = b.object("checkpoint");
        if (value == null && data == null) {
            throw OjsException.invalidField(field, "A progress report needs '" + field + "', 'data' or both.",
                    "present", "missing");
        }
        String message = b.string("message", false);
        if (message != null && message.length() > MAX_MESSAGE) {
            throw OjsException.invalidField("message", "'message' must be at most " + MAX_MESSAGE + " characters.",
                    "at most " + MAX_MESSAGE + " characters", message.length() + " characters");
        }
        return new ProgressService.Report(value, message, data == null ? null : data.node().toString(),
                checkpoint == null ? null : checkpoint.node().toString());
    }
}
