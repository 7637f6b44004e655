package dev.steadfast.console.errors;

import dev.steadfast.console.ConfirmView;
import dev.steadfast.console.ConfirmView.Hidden;
import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Flash;
import dev.steadfast.console.Format;
import dev.steadfast.console.Pages;
import dev.steadfast.errorgroups.ErrorGroupService;
import dev.steadfast.errorgroups.ErrorGroupService.Action;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.util.List;

/**
 * {@code /admin/errors}: failures grouped by error type and normalised message, with their last 24 hours as a
 * sparkline; {@code /admin/errors/{id}}: one group's jobs and the actions on the whole group (retry, discard,
 * delete), each after a confirmation that states how many jobs it touches. All through {@link ErrorGroupService},
 * the admin API's implementation.
 */
@Path("/admin/errors")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class ErrorGroupsPage {

    static final int PAGE_SIZE = 50;

    private final ErrorGroupService groups;
    private final ConsoleRequest request;
    private final Clock clock;

    public ErrorGroupsPage(ErrorGroupService groups, ConsoleRequest request, Clock clock) {
        this.groups = groups;
        this.request = request;
        this.clock = clock;
    }

    @GET
    public Uni<TemplateInstance> list(@QueryParam("after") String after) {
        String cursor = ConsoleParams.text(after);
        return groups.list(PAGE_SIZE, cursor).map(page -> Pages.errors(request.chrome("errors"), new ErrorGroupsView(
                page.groups().stream().map(g -> ErrorGroupsView.line(g, clock.instant())).toList(),
                page.next() == null ? null : "/admin/errors?after=" + page.next(), cursor != null)));
    }

    @GET
    @Path("/{id}")
    public Uni<TemplateInstance> group(@PathParam("id") String id, @QueryParam("before") String before) {
        String cursor = ConsoleParams.text(before);
        return groups.get(id, cursor, PAGE_SIZE).map(d -> Pages.errorGroup(request.chrome("errors"),
                ErrorGroupView.of(d, cursor != null, clock.instant())));
    }

    /** {@code action}: retry, discard or delete; without {@code confirm=yes} it answers the confirmation. */
    @POST
    @Path("/{id}/{action}")
    public Uni<Response> act(@PathParam("id") String id, @PathParam("action") String action,
                             @FormParam("confirm") String confirm) {
        Action a = Action.parse(action);
        String back = "/admin/errors/" + id;
        if (!ConsoleParams.confirmed(confirm)) {
            return groups.count(id, a).map(n -> confirmation(id, a, n, back));
        }
        return groups.act(id, a).map(o -> Flash.redirect(back, done(a, o.succeeded())
                + (o.succeeded() < o.matched() ? " " + jobs(o.matched() - o.succeeded())
                + " had changed meanwhile and were left alone." : "")));
    }

    private Response confirmation(String id, Action a, long n, String back) {
        String title = switch (a) {
            case RETRY -> "Retry " + jobs(n) + " of this error group?";
            case DISCARD -> "Discard " + jobs(n) + " of this error group?";
            case DELETE -> "Delete " + jobs(n) + " of this error group?";
        };
        String message = n == 0 ? "No job of this group is in a state this action applies to." : switch (a) {
            case RETRY -> "This runs the group's " + jobs(n) + " again: retryable jobs now, dead letters and other"
                    + " discarded jobs as new runs (their error history is kept).";
            case DISCARD -> "This discards the group's " + jobs(n) + " waiting for a retry, without that attempt"
                    + " (workflow steps are left to their workflow).";
            case DELETE -> "This deletes the group's " + jobs(n) + " (retryable, discarded and dead letters) for good."
                    + " This cannot be undone.";
        };
        ConfirmView v = new ConfirmView(title, message, n == 0 ? null : back + "/" + a.wire(),
                List.of(new Hidden("confirm", "yes")), switch (a) {
                    case RETRY -> "Retry ";
                    case DISCARD -> "Discard ";
                    case DELETE -> "Delete ";
                } + jobs(n), a != Action.RETRY, back);
        return Response.ok(Pages.confirm(request.chrome("errors"), v)).build();
    }

    private static String done(Action a, long n) {
        return switch (a) {
            case RETRY -> "Retried ";
            case DISCARD -> "Discarded ";
            case DELETE -> "Deleted ";
        } + jobs(n) + ".";
    }

    static String jobs(long n) {
        return Format.count(n) + (n == 1 ? " job" : " jobs");
    }
}
