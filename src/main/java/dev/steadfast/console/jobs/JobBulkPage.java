package dev.steadfast.console.jobs;

import dev.steadfast.console.ConfirmView;
import dev.steadfast.console.ConfirmView.Hidden;
import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Flash;
import dev.steadfast.console.Format;
import dev.steadfast.console.Pages;
import dev.steadfast.domain.BulkJobAction;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.model.BulkScope;
import dev.steadfast.operations.JobBulkService;
import dev.steadfast.operations.JobSearchService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * {@code POST /admin/jobs/bulk}: the jobs list's cancel, retry and delete, on the selected rows ({@code id}) or on
 * everything the list's filter matches (its fields are repeated in the form), through {@link JobBulkService}.
 * Without {@code confirm=yes} nothing changes: the answer is a confirmation page stating how many jobs the action
 * would change now; with it, the action runs and the browser goes back to the list with how many it changed.
 */
@Path("/admin/jobs/bulk")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class JobBulkPage {

    static final int MAX_SELECTED = 500;

    private final JobBulkService bulk;
    private final ConsoleRequest request;
    private final Clock clock;

    public JobBulkPage(JobBulkService bulk, ConsoleRequest request, Clock clock) {
        this.bulk = bulk;
        this.request = request;
        this.clock = clock;
    }

    /** {@code op} is cancel, retry or delete, then -selected (the {@code id} boxes) or -matching (the filter). */
    @POST
    public Uni<Response> bulk(@FormParam("op") String op, @FormParam("id") List<String> ids,
                              @FormParam("state") String state, @FormParam("queue") String queue,
                              @FormParam("type") String type, @FormParam("tag") String tag,
                              @FormParam("from") String from, @FormParam("to") String to, @FormParam("q") String q,
                              @FormParam("confirm") String confirm) {
        String[] parts = op == null ? new String[0] : op.split("-", 2);
        BulkJobAction action = parts.length == 2 && (parts[1].equals("selected") || parts[1].equals("matching"))
                ? BulkJobAction.fromWire(parts[0]).orElse(null) : null;
        if (action == null) {
            throw OjsException.invalidField("op", "'op' is cancel, retry or delete, then -selected or -matching.",
                    "(cancel|retry|delete)-(selected|matching)", op);
        }
        boolean matching = parts[1].equals("matching");
        JobListQuery query = JobListQuery.parse(state, queue, type, tag, from, to, q, null, null, null);
        JobSearchService.checkText(query.text());
        List<UUID> selected = matching ? List.of() : selected(ids);
        BulkScope scope = matching ? BulkScope.of(query.filter()) : BulkScope.of(selected);
        String back = query.href(null, null);
        if (!ConsoleParams.confirmed(confirm)) {
            return bulk.count(action, scope).map(c -> confirmation(action, matching, query, selected, c, back));
        }
        Uni<Long> done = switch (action) {
            case CANCEL -> bulk.cancel(scope, request.actor());
            case RETRY -> bulk.retry(scope, request.actor());
            case DELETE -> bulk.delete(scope, request.actor());
        };
        return done.map(n -> Flash.redirect(back, past(action) + " " + DeadLetterPage.jobs(n) + "."));
    }

    private Response confirmation(BulkJobAction action, boolean matching, JobListQuery query, List<UUID> selected,
                                  JobBulkService.Count count, String back) {
        long n = count.jobs();
        List<Hidden> fields = new ArrayList<>();
        fields.add(new Hidden("op", action.wire() + (matching ? "-matching" : "-selected")));
        selected.forEach(id -> fields.add(new Hidden("id", id.toString())));
        fields.add(new Hidden("state", query.stateName()));
        fields.add(new Hidden("queue", query.queue() == null ? "" : query.queue()));
        fields.add(new Hidden("type", query.type() == null ? "" : query.type()));
        fields.add(new Hidden("tag", query.tag() == null ? "" : query.tag()));
        fields.add(new Hidden("from", query.fromInput()));
        fields.add(new Hidden("to", query.toInput()));
        fields.add(new Hidden("q", query.q() == null ? "" : query.q()));
        fields.add(new Hidden("confirm", "yes"));
        String what = matching ? query.describe() : "the " + DeadLetterPage.jobs(selected.size()) + " selected";
        String verb = verb(action);
        String jobs = (count.atLeast() ? "at least " : "") + DeadLetterPage.jobs(n);
        String title = verb + " " + jobs + "?";
        String message = n == 0 ? "Nothing to " + action.wire() + " in " + what + ": " + applies(action) + "."
                : "This " + explain(action) + " " + jobs + " of " + what + " ("
                + applies(action) + "). A job that a worker claims or another operator changes meanwhile is left"
                + " alone." + (count.atLeast() ? " Counting stopped at "
                + String.format(Locale.ROOT, "%,d", JobBulkService.COUNT_CAP) + " per table"
                + (query.q() == null ? "" : ", and a text or args search counts among the newest "
                + String.format(Locale.ROOT, "%,d", JobBulkService.COUNT_READ_CAP) + " live jobs and as many"
                + " of today's finished ones (they have no search index yet)")
                + "; the action goes on until no job matches." : "")
                + (action == BulkJobAction.DELETE ? " This cannot be undone." : "")
                + (count.shared() ? " Counted " + Format.relative(count.at(), clock.instant())
                + " (the console's shared counts)." : "");
        ConfirmView v = new ConfirmView(title, message, n == 0 ? null : "/admin/jobs/bulk", fields,
                verb + " " + jobs, action != BulkJobAction.RETRY, back);
        return Response.ok(Pages.confirm(request.chrome("jobs"), v)).build();
    }

    private static String verb(BulkJobAction a) {
        return switch (a) {
            case CANCEL -> "Cancel";
            case RETRY -> "Retry";
            case DELETE -> "Delete";
        };
    }

    private static String past(BulkJobAction a) {
        return switch (a) {
            case CANCEL -> "Cancelled";
            case RETRY -> "Retried";
            case DELETE -> "Deleted";
        };
    }

    private static String explain(BulkJobAction a) {
        return switch (a) {
            case CANCEL -> "cancels";
            case RETRY -> "retries";
            case DELETE -> "deletes for good";
        };
    }

    /** Which jobs the action applies to, in words, from BulkJobAction's states. */
    private static String applies(BulkJobAction a) {
        return "it applies to " + a.sources().stream().map(JobState::wire)
                .collect(Collectors.joining(", ")) + " jobs, never to an active one";
    }

    private static List<UUID> selected(List<String> ids) {
        if (ids == null || ids.isEmpty()) {
            throw OjsException.invalidField("id", "Select at least one job (or act on everything matching).");
        }
        if (ids.size() > MAX_SELECTED) {
            throw OjsException.invalidField("id", "At most " + MAX_SELECTED + " jobs can be selected at once;"
                    + " act on everything matching the filter instead.");
        }
        return ids.stream().map(ConsoleParams::jobId).distinct().toList();
    }
}
