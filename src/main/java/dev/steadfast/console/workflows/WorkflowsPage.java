package dev.steadfast.console.workflows;

import dev.steadfast.console.Chrome;
import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Format;
import dev.steadfast.console.Pages;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.workflow.WorkflowState;
import dev.steadfast.domain.workflow.WorkflowType;
import dev.steadfast.model.WorkflowFilter;
import dev.steadfast.workflows.WorkflowListQuery;
import dev.steadfast.workflows.WorkflowListing;
import dev.steadfast.workflows.WorkflowService;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * {@code /admin/workflows}: workflows newest first with the API's filters ({@link WorkflowListQuery}) in keyset
 * pages, and one workflow's page: its graph ({@link WorkflowLayout}, drawn as inline SVG), every member of its tree
 * and the actions ({@link WorkflowActionsPage}).
 */
@Path("/admin/workflows")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class WorkflowsPage {

    static final int PAGE_SIZE = 50;

    private final WorkflowListing listing;
    private final WorkflowService workflows;
    private final ConsoleRequest request;
    private final Clock clock;

    public WorkflowsPage(WorkflowListing listing, WorkflowService workflows, ConsoleRequest request, Clock clock) {
        this.listing = listing;
        this.workflows = workflows;
        this.request = request;
        this.clock = clock;
    }

    @GET
    public Uni<TemplateInstance> list(@QueryParam("state") String state, @QueryParam("type") String type,
                                      @QueryParam("name") String name, @QueryParam("created_after") String after,
                                      @QueryParam("created_before") String before, @QueryParam("nested") String nested,
                                      @QueryParam("cursor") String cursor) {
        Chrome chrome = request.chrome("workflows");
        WorkflowFilter f = WorkflowListQuery.parse(state, type, name, ConsoleParams.time("created_after", after),
                ConsoleParams.time("created_before", before), nested);
        WorkflowListView.Form form = WorkflowListView.Form.of(f);
        Instant now = clock.instant();
        return listing.page(f, ConsoleParams.text(cursor), PAGE_SIZE).map(p -> Pages.workflows(chrome,
                new WorkflowListView(form, Arrays.stream(WorkflowState.values()).map(WorkflowState::wire).toList(),
                        Arrays.stream(WorkflowType.values()).map(WorkflowType::wire).toList(),
                        p.workflows().stream().map(w -> WorkflowListView.Line.of(w, now)).toList(), p.total(),
                        p.nextCursor() == null ? null : form.href(p.nextCursor()),
                        cursor == null || cursor.isBlank() ? null : form.href(null),
                        p.workflows().isEmpty() ? (form.filtered() ? "No workflow matches this filter."
                                : "No workflows yet.") : null)));
    }

    @GET
    @Path("/{id}")
    public Uni<TemplateInstance> workflow(@PathParam("id") String id) {
        Chrome chrome = request.chrome("workflows");
        UUID wf = workflowId(id);
        return WorkflowTree.load(workflows, wf).map(o -> {
            WorkflowTree t = o.orElseThrow(() -> OjsException.notFound("workflow", id));
            return Pages.workflow(chrome, view(t));
        });
    }

    static UUID workflowId(String id) {
        UUID u = ConsoleParams.maybeId(id);
        if (u == null) {
            throw OjsException.notFound("workflow", id == null ? "" : id);
        }
        return u;
    }

    static WorkflowPageView view(WorkflowTree t) {
        var w = t.view().workflow();
        var report = t.view().report();
        List<WorkflowPageView.Row> rows = new ArrayList<>();
        t.rows("", rows);
        Instant finished = w.completedAt() != null ? w.completedAt() : w.cancelledAt();
        return new WorkflowPageView(w.id().toString(), w.type().wire(), w.name(), w.state().wire(),
                w.parentId() == null ? null : w.parentId().toString(), Format.time(w.createdAt()),
                Format.time(report.startedAt()), Format.time(finished), report.jobCount(), report.completedCount(),
                report.failedCount(), WorkflowLayout.of(t.shape()), rows, !w.state().terminal(),
                report.failures().size());
    }
}
