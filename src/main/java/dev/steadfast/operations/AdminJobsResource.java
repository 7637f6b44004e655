package dev.steadfast.operations;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.jobs.JobAnswer;
import dev.steadfast.jobs.JobChange;
import dev.steadfast.jobs.JobService;
import dev.steadfast.jobs.JobView;
import dev.steadfast.model.JobFilter;
import dev.steadfast.stats.JobCounts;
import dev.steadfast.stats.StatsService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.time.Instant;

/**
 * One job's operator actions in the admin API (ojs-admin-api.md 7.3, 7.4): cancel, retry (run a waiting job now,
 * or re-enqueue a discarded, dead-lettered or cancelled one as a new run) and delete. The console's buttons call
 * the same {@link OperatorService}. Also zzz_jobs' two operations: count by state per queue, and delete completed
 * jobs before a cutoff.
 */
@Path("/ojs/v1/admin/jobs")
class AdminJobsResource {

    private final OperatorService operator;
    private final StatsService stats;
    private final JobService jobs;
    private final ObjectMapper json;

    public AdminJobsResource(OperatorService operator, StatsService stats, JobService jobs, ObjectMapper json) {
        this.jobs = jobs;
        this.operator = operator;
        this.stats = stats;
        this.json = json;
    }

    /** The job as its whole envelope, not wrapped (ojs-admin-api.md 7.2); 404 when unknown. */
    @GET
    @Path("/{id}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("id") String id) {
        return jobs.info(Params.jobId(id)).map(row -> Responses.ok(json, JobView.of(json, row)));
    }

    /**
     * Bulk retry (ojs-admin-api.md 7.5): {@code {"filter": {"state", "queue", "type"}, "confirm": true}} retries
     * every matching job as the single retry does; without {@code "confirm": true} it is refused with 400.
     */
    @POST
    @Path("/bulk/retry")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> bulkRetry(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> {
            Body f = b.object("filter");
            String state = f == null ? null : f.string("state", false);
            JobState s = state == null ? null : JobState.fromWire(state).orElseThrow(() -> OjsException.invalidField(
                    "filter.state", "'filter.state' must be a job state.", "job state", state));
            JobFilter filter = new JobFilter(s, f == null ? null : Params.queue("filter.queue", f.string("queue", false)),
                    f == null ? null : f.string("type", false), false, null, null, null, null);
            return operator.retryMatching(filter, Boolean.TRUE.equals(b.bool("confirm")), "admin-api");
        }).map(r -> Responses.ok(json, new AdminJobAnswers.Bulk("retry", r.matched(), r.succeeded(), r.failed())));
    }

    /** Jobs by state in one queue ({@code ?queue=}) or in all, counted now (zzz_jobs' countByState). */
    @GET
    @Path("/count")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> count(@QueryParam("queue") String queue) {
        return stats.countByState(Params.queue("queue", queue)).map(c -> Responses.ok(json,
                new AdminJobAnswers.Count(c.queue(), JobCounts.of(c, false), c.deadLetters())));
    }

    /**
     * Deletes every job completed before {@code ?before=} (RFC 3339, required: no accidental "delete all"),
     * answering how many (zzz_jobs' deleteCompleted). Discarded, cancelled and dead-lettered jobs are kept.
     */
    @DELETE
    @Path("/completed")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> deleteCompleted(@QueryParam("before") String before) {
        Instant cutoff = Params.requiredTimestamp("before", before);
        return operator.deleteCompletedBefore(cutoff, "admin-api").map(n -> Responses.ok(json,
                new AdminJobAnswers.DeletedCompleted(n, Timestamps.format(cutoff))));
    }

    @POST
    @Path("/{id}/cancel")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> cancel(@PathParam("id") String id) {
        return operator.cancel(Params.jobId(id), "admin-api").map(c -> {
            return Responses.ok(json, JobAnswer.of(JobChange.cancelled(JobView.of(json, c.job()),
                    c.previousState().wire())));
        });
    }

    @POST
    @Path("/{id}/retry")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> retry(@PathParam("id") String id) {
        return operator.retry(Params.jobId(id), "admin-api")
                .map(row -> Responses.ok(json, JobAnswer.of(JobView.of(json, row))));
    }

    @DELETE
    @Path("/{id}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> delete(@PathParam("id") String id) {
        return operator.delete(Params.jobId(id), "admin-api").map(row -> Responses.ok(json,
                new AdminJobAnswers.Deleted(true, row.id().toString(), row.state().wire())));
    }
}
