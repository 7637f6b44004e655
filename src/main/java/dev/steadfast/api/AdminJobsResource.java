package dev.steadfast.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.service.OperatorService;
import dev.steadfast.service.StatsService;
import dev.steadfast.service.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One job's operator actions in the admin API (ojs-admin-api.md 7.3, 7.4): cancel, retry (run a waiting job now,
 * or re-enqueue a discarded, dead-lettered or cancelled one as a new run) and delete. The console's buttons call
 * the same {@link OperatorService}. Also zzz_jobs' two operations: count by state per queue, and delete completed
 * jobs before a cutoff.
 */
@Path("/ojs/v1/admin/jobs")
public class AdminJobsResource {

    private final OperatorService operator;
    private final StatsService stats;
    private final ObjectMapper json;

    public AdminJobsResource(OperatorService operator, StatsService stats, ObjectMapper json) {
        this.operator = operator;
        this.stats = stats;
        this.json = json;
    }

    /** Jobs by state in one queue ({@code ?queue=}) or in all, counted now (zzz_jobs' countByState). */
    @GET
    @Path("/count")
    public Uni<Response> count(@QueryParam("queue") String queue) {
        return stats.countByState(Params.queue("queue", queue)).map(c -> {
            Map<String, Object> counts = new LinkedHashMap<>();
            c.byState().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> counts.put(e.getKey().wire(), e.getValue()));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("queue", c.queue());
            out.put("counts", counts);
            out.put("dead_letter", c.deadLetters());
            return Responses.ok(json, out);
        });
    }

    /**
     * Deletes every job completed before {@code ?before=} (RFC 3339, required: no accidental "delete all"),
     * answering how many (zzz_jobs' deleteCompleted). Discarded, cancelled and dead-lettered jobs are kept.
     */
    @DELETE
    @Path("/completed")
    public Uni<Response> deleteCompleted(@QueryParam("before") String before) {
        Instant cutoff = Params.requiredTimestamp("before", before);
        return operator.deleteCompletedBefore(cutoff, "admin-api").map(n -> {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("deleted", n);
            out.put("before", Timestamps.format(cutoff));
            return Responses.ok(json, out);
        });
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
