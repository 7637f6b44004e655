package dev.steadfast.errorgroups;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/**
 * Error groups in the admin API: the groups, the most recently failing first, in cursor pages; one group with its
 * counts and its jobs in cursor pages. Read-only: the console acts on a group (see docs/operations/console.md).
 */
@Path("/ojs/v1/admin/error-groups")
class AdminErrorGroupResource {

    private final ErrorGroupService groups;
    private final ObjectMapper json;

    public AdminErrorGroupResource(ErrorGroupService groups, ObjectMapper json) {
        this.groups = groups;
        this.json = json;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        int n = Params.integer("limit", limit, 50, 1, 200);
        return groups.list(n, cursor).map(page -> Responses.ok(json, new ErrorGroupAnswers.Groups(
                page.groups().stream().map(ErrorGroupAnswers.Group::of).toList(), page.next())));
    }

    @GET
    @Path("/{id}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("id") String id, @QueryParam("limit") String limit,
                             @QueryParam("cursor") String cursor) {
        int n = Params.integer("limit", limit, 50, 1, 200);
        return groups.get(id, cursor, n).map(d -> Responses.ok(json, ErrorGroupAnswers.Detail.of(d)));
    }
}
