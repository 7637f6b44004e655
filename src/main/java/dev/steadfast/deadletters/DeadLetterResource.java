package dev.steadfast.deadletters;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.jobs.JobAnswer;
import dev.steadfast.jobs.JobView;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/**
 * The dead letter queue (ojs-http-binding.md section 12, ojs-dead-letter.md section 10): list with filters
 * (queue, type, error_type, since, until) and cursor or offset pagination, get one, retry one, delete one,
 * statistics, and bulk retry / delete by filter with {@code "confirm": true}.
 */
@Path("/ojs/v1/dead-letter")
class DeadLetterResource {

    private final DeadLetterService deadLetters;
    private final DeadLetterReplies replies;
    private final ObjectMapper json;

    public DeadLetterResource(DeadLetterService deadLetters, DeadLetterReplies replies, ObjectMapper json) {
        this.deadLetters = deadLetters;
        this.replies = replies;
        this.json = json;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list(@QueryParam("queue") String queue, @QueryParam("type") String type,
                              @QueryParam("error_type") String errorType, @QueryParam("since") String since,
                              @QueryParam("until") String until, @QueryParam("limit") String limit,
                              @QueryParam("offset") String offset, @QueryParam("cursor") String cursor) {
        int n = Params.integer("limit", limit, 50, 1, 200);
        int off = Params.integer("offset", offset, 0, 0, Integer.MAX_VALUE);
        return deadLetters.list(DeadLetterViews.filter(queue, type, errorType, since, until), cursor, n, off)
                .map(page -> {
                    var p = new DeadLetterAnswers.CursorPagination(page.total(), n, cursor == null ? off : 0,
                            page.nextCursor() != null, page.nextCursor());
                    return Responses.ok(json, new DeadLetterAnswers.Page(DeadLetterViews.views(json, page.jobs()), p));
                });
    }

    @GET
    @Path("/stats")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> stats() {
        return replies.stats();
    }

    @GET
    @Path("/{id}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("id") String id) {
        return deadLetters.get(Params.jobId(id)).map(j -> Responses.ok(json, JobAnswer.of(JobView.of(json, j))));
    }

    @POST
    @Path("/{id}/retry")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> retry(@PathParam("id") String id) {
        return replies.retry(id);
    }

    @DELETE
    @Path("/{id}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> delete(@PathParam("id") String id) {
        return deadLetters.delete(Params.jobId(id)).map(v -> {
            return Responses.ok(json, new DeadLetterAnswers.Deleted(true, id));
        });
    }

    /** Bulk retry: {@code {"filter": {...}, "confirm": true}}. */
    @POST
    @Path("/retry")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> retryMatching(String body) {
        return replies.retryMatching(body);
    }

    /** Bulk delete: {@code {"filter": {...}, "confirm": true}} (a POST, since DELETE carries no body). */
    @POST
    @Path("/delete")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> deleteMatching(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b ->
                deadLetters.deleteAll(DeadLetterViews.filter(b), Boolean.TRUE.equals(b.bool("confirm"))))
                .map(r -> Responses.ok(json, DeadLetterViews.bulk(r)));
    }

    /** Purge by filter given as query parameters, with {@code confirm=true}. */
    @DELETE
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> purge(@QueryParam("queue") String queue, @QueryParam("type") String type,
                               @QueryParam("error_type") String errorType, @QueryParam("since") String since,
                               @QueryParam("until") String until, @QueryParam("confirm") String confirm) {
        return deadLetters.deleteAll(DeadLetterViews.filter(queue, type, errorType, since, until),
                "true".equals(confirm)).map(r -> Responses.ok(json, DeadLetterViews.bulk(r)));
    }
}
