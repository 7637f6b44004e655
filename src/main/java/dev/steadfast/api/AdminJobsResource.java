package dev.steadfast.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.service.OperatorService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One job's operator actions in the admin API (ojs-admin-api.md 7.3, 7.4): cancel, retry (run a waiting job now,
 * or re-enqueue a discarded, dead-lettered or cancelled one as a new run) and delete. The console's buttons call
 * the same {@link OperatorService}.
 */
@Path("/ojs/v1/admin/jobs")
public class AdminJobsResource {

    private final OperatorService operator;
    private final ObjectMapper json;

    public AdminJobsResource(OperatorService operator, ObjectMapper json) {
        this.operator = operator;
        this.json = json;
    }

    @POST
    @Path("/{id}/cancel")
    public Uni<Response> cancel(@PathParam("id") String id) {
        return operator.cancel(JobResource.jobId(id), "admin-api").map(c -> {
            Map<String, Object> view = JobJson.view(json, c.job());
            view.put("previous_state", c.previousState().wire());
            return Responses.ok(json, Map.of("job", view));
        });
    }

    @POST
    @Path("/{id}/retry")
    public Uni<Response> retry(@PathParam("id") String id) {
        return operator.retry(JobResource.jobId(id), "admin-api")
                .map(row -> Responses.ok(json, Map.of("job", JobJson.view(json, row))));
    }

    @DELETE
    @Path("/{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        return operator.delete(JobResource.jobId(id), "admin-api").map(row -> {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("deleted", true);
            out.put("job_id", row.id().toString());
            out.put("previous_state", row.state().wire());
            return Responses.ok(json, out);
        });
    }
}
