package dev.steadfast.work;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.OjsException;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.UUID;

/**
 * ACK and NACK addressed by the job's path, {@code POST /ojs/v1/jobs/{id}/ack} and {@code .../nack}: the form
 * ojs-results.md 10.1 and ojs-serverless.md 4.2 write, and some extension suites send. They are aliases of
 * {@code POST /ojs/v1/workers/ack} and {@code /nack}: the same body (without {@code job_id}, or with the same one),
 * read by the same code ({@link WorkerResource#acknowledge}, {@link WorkerResource#negativeAck}), so the same
 * lease rules hold: the job must be active under a lease that has not expired, and a {@code worker_id} must be the
 * lease holder's (steadfast.workers.require-worker-id makes it required here too). An empty body reads as {@code
 * {}}. The answer is the worker route's, with the same object under {@code job} as well, the shape job-scoped
 * answers have in the binding ({@code $.job.state}).
 */
@Path("/ojs/v1/jobs/{id}")
class JobAckResource {

    private final WorkerResource worker;
    private final ObjectMapper json;

    public JobAckResource(WorkerResource worker, ObjectMapper json) {
        this.worker = worker;
        this.json = json;
    }

    @POST
    @Path("/ack")
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<Response> ack(@PathParam("id") String id, String body) {
        return Uni.createFrom().item(() -> body(id, body)).flatMap(b -> worker.acknowledge(Params.jobId(id), b))
                .map(a -> Responses.ok(json, new OnJob<>(a, a)));
    }

    @POST
    @Path("/nack")
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<Response> nack(@PathParam("id") String id, String body) {
        return Uni.createFrom().item(() -> body(id, body)).flatMap(b -> worker.negativeAck(Params.jobId(id), b))
                .map(o -> Responses.ok(json, new OnJob<>(o, o)));
    }

    /** The body ({@code {}} when empty); 404 for a path id that names no job, 400 for a different {@code job_id}. */
    private Body body(String id, String text) {
        UUID job = Params.jobId(id);
        Body b = Body.parse(json, text == null || text.isBlank() ? "{}" : text);
        if (b.has("job_id") && !job.equals(WorkerResource.jobIdField(b))) {
            throw OjsException.invalidField("job_id", "'job_id' names another job than the path; send it without"
                    + " 'job_id' or with the same id.", id, b.string("job_id", false));
        }
        return b;
    }

    /** The worker route's answer, and the same object under {@code job}. */
    record OnJob<T>(@JsonUnwrapped T answer, T job) {
    }
}
