package dev.steadfast.console.jobs;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.console.Chrome;
import dev.steadfast.console.ConfirmView.Hidden;
import dev.steadfast.console.ConfirmView;
import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Flash;
import dev.steadfast.console.Format;
import dev.steadfast.console.Pages;
import dev.steadfast.deadletters.DeadLetterService;
import dev.steadfast.domain.OjsException;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.tuples.Tuple2;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * {@code /admin/dead-letter}: browse dead letters by queue, job type, error type and time; re-enqueue or delete
 * the selected ones, or everything matching the filter (not just the page) after a confirmation that states
 * the count. All through {@link DeadLetterService}, the API's implementation.
 */
@Path("/admin/dead-letter")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class DeadLetterPage {

    static final int MAX_SELECTED = 500;

    private final DeadLetterService deadLetters;
    private final ConsoleRequest request;
    private final ObjectMapper json;
    private final Clock clock;

    public DeadLetterPage(DeadLetterService deadLetters, ConsoleRequest request, ObjectMapper json, Clock clock) {
        this.deadLetters = deadLetters;
        this.request = request;
        this.json = json;
        this.clock = clock;
    }

    @GET
    public Uni<TemplateInstance> page(@QueryParam("queue") String queue, @QueryParam("type") String type,
                                      @QueryParam("error_type") String errorType, @QueryParam("since") String since,
                                      @QueryParam("until") String until, @QueryParam("after") String after) {
        DeadLetterQuery q = DeadLetterQuery.parse(queue, type, errorType, since, until, after);
        Chrome chrome = request.chrome("dead-letter");
        Instant now = clock.instant();
        // One after the other: both read through the request's Hibernate session, which runs one query at a time.
        return deadLetters.list(q.filter(), q.after(), JobsPage.PAGE_SIZE, 0).flatMap(page -> deadLetters.stats()
                .map(stats -> Tuple2.of(page, stats))).map(t -> Pages.deadLetter(chrome, new DeadLetterView(q,
                List.copyOf(t.getItem2().byQueue().keySet()), List.copyOf(t.getItem2().byErrorType().keySet()),
                Format.count(t.getItem2().total()), t.getItem1().total(),
                t.getItem1().jobs().stream().map(j -> DeadLetterView.line(json, j, now)).toList(),
                t.getItem1().nextCursor() == null ? null : q.href(t.getItem1().nextCursor()), q.href(null))));
    }

    /**
     * {@code op} is retry-selected, delete-selected (the {@code id} boxes), retry-matching or delete-matching
     * (everything the filter fields match).
     */
    @POST
    @Path("/bulk")
    public Uni<Response> bulk(@FormParam("op") String op, @FormParam("id") List<String> ids, @FormParam("queue") String queue,
                              @FormParam("type") String type, @FormParam("error_type") String errorType,
                              @FormParam("since") String since, @FormParam("until") String until,
                              @FormParam("confirm") String confirm) {
        if (op == null || !op.matches("(retry|delete)-(selected|matching)")) {
            throw OjsException.invalidField("op", "'op' is retry-selected, delete-selected, retry-matching or "
                    + "delete-matching.", "retry|delete-selected|matching", op);
        }
        boolean retry = op.startsWith("retry");
        boolean matching = op.endsWith("matching");
        DeadLetterQuery q = DeadLetterQuery.parse(queue, type, errorType, since, until, null);
        List<UUID> selected = matching ? List.of() : selected(ids);
        String back = q.href(null);
        if (!ConsoleParams.confirmed(confirm)) {
            Uni<Long> count = matching ? deadLetters.count(q.filter()) : Uni.createFrom().item((long) selected.size());
            return count.map(n -> confirmation(retry, matching, q, selected, n, back));
        }
        Uni<DeadLetterService.Bulk> done = matching
                ? retry ? deadLetters.retryAll(q.filter(), true) : deadLetters.deleteAll(q.filter(), true)
                : retry ? deadLetters.retryEach(selected, true) : deadLetters.deleteEach(selected, true);
        return done.map(b -> Flash.redirect(back, (retry ? "Re-enqueued " : "Deleted ") + jobs(b.succeeded()) + "."
                + (b.succeeded() < b.matched() ? " " + jobs(b.matched() - b.succeeded())
                + " had already left the dead letter queue." : "")));
    }

    private Response confirmation(boolean retry, boolean matching, DeadLetterQuery q, List<UUID> selected, long n,
                                  String back) {
        List<Hidden> fields = new ArrayList<>();
        fields.add(new Hidden("op", (retry ? "retry-" : "delete-") + (matching ? "matching" : "selected")));
        selected.forEach(id -> fields.add(new Hidden("id", id.toString())));
        fields.add(new Hidden("queue", q.queue() == null ? "" : q.queue()));
        fields.add(new Hidden("type", q.type() == null ? "" : q.type()));
        fields.add(new Hidden("error_type", q.errorType() == null ? "" : q.errorType()));
        fields.add(new Hidden("since", q.sinceInput()));
        fields.add(new Hidden("until", q.untilInput()));
        fields.add(new Hidden("confirm", "yes"));
        String what = matching ? q.describe() : "the selected dead letters";
        String title = (retry ? "Re-enqueue " : "Delete ") + jobs(n) + "?";
        String message = n == 0 ? "Nothing matches: " + what + "." : retry
                ? "This re-enqueues " + what + " (" + jobs(n) + ") as new runs; their error history is kept."
                : "This deletes " + what + " (" + jobs(n) + ") for good. This cannot be undone.";
        ConfirmView v = new ConfirmView(title, message, n == 0 ? null : "/admin/dead-letter/bulk", fields,
                (retry ? "Re-enqueue " : "Delete ") + jobs(n), !retry, back);
        return Response.ok(Pages.confirm(request.chrome("dead-letter"), v)).build();
    }

    private static List<UUID> selected(List<String> ids) {
        if (ids == null || ids.isEmpty()) {
            throw OjsException.invalidField("id", "Select at least one dead letter (or act on everything matching).");
        }
        if (ids.size() > MAX_SELECTED) {
            throw OjsException.invalidField("id", "At most " + MAX_SELECTED + " dead letters can be selected at once;"
                    + " act on everything matching the filter instead.");
        }
        return ids.stream().map(ConsoleParams::jobId).distinct().toList();
    }

    static String jobs(long n) {
        return Format.count(n) + (n == 1 ? " job" : " jobs");
    }
}
