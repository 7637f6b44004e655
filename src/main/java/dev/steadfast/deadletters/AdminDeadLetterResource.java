package dev.steadfast.deadletters;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.http.Pagination;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/**
 * The dead letter queue in the admin API's shapes (ojs-admin-api.md section 11): {@code items} with page-based
 * pagination, 204 on delete. Same operations as {@link DeadLetterResource}, one implementation ({@link DeadLetterReplies} where the answers are alike).
 */
@Path("/ojs/v1/admin/dead-letter")
class AdminDeadLetterResource {

    private final DeadLetterService deadLetters;
    private final DeadLetterReplies replies;
    private final ObjectMapper json;

    public AdminDeadLetterResource(DeadLetterService deadLetters, DeadLetterReplies replies, ObjectMapper json) {
        this.deadLetters = deadLetters;
        this.replies = replies;
        this.json = json;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list(@QueryParam("queue") String queue, @QueryParam("type") String type,
                              @QueryParam("error_type") String errorType, @QueryParam("since") String since,
                              @QueryParam("until") String until, @QueryParam("page") String page,
                              @QueryParam("per_page") String perPage) {
        int p = Params.integer("page", page, 1, 1, 1_000_000);
        int n = Params.integer("per_page", perPage, 20, 1, 100);
        return deadLetters.list(DeadLetterViews.filter(queue, type, errorType, since, until), null, n, (p - 1) * n)
                .map(result -> Responses.ok(json, new DeadLetterAnswers.AdminPage(
                        DeadLetterViews.views(json, result.jobs()), new Pagination(result.total(), p, n))));
    }

    @GET
    @Path("/stats")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> stats() {
        return replies.stats();
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
        return deadLetters.delete(Params.jobId(id)).map(v -> Response.noContent().build());
    }

    @POST
    @Path("/retry")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> retryMatching(String body) {
        return replies.retryMatching(body);
    }
}
