package dev.steadfast.console.workflows;

import dev.steadfast.console.Chrome;
import dev.steadfast.console.ConfirmView;
import dev.steadfast.console.ConfirmView.Hidden;
import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Flash;
import dev.steadfast.console.Pages;
import dev.steadfast.domain.OjsException;
import dev.steadfast.model.WorkflowView;
import dev.steadfast.operations.OperatorService;
import dev.steadfast.workflows.WorkflowService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.UUID;

/**
 * The workflow page's buttons, through the services the API uses: cancel the workflow
 * ({@link WorkflowService#cancel}, as {@code DELETE /ojs/v1/workflows/{id}}) and retry its failed jobs (each job
 * of the tree that failed for good, re-enqueued by {@link OperatorService#retry} as the job page's retry does).
 * Each POST without {@code confirm=yes} changes nothing and answers a confirmation page that states what will
 * happen and to how many jobs.
 */
@Path("/admin/workflows/{id}/actions")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class WorkflowActionsPage {

    private final WorkflowService workflows;
    private final OperatorService operator;
    private final ConsoleRequest request;

    public WorkflowActionsPage(WorkflowService workflows, OperatorService operator, ConsoleRequest request) {
        this.workflows = workflows;
        this.operator = operator;
        this.request = request;
    }

    @POST
    @Path("/cancel")
    public Uni<Response> cancel(@PathParam("id") String id, @FormParam("confirm") String confirm) {
        UUID wf = WorkflowsPage.workflowId(id);
        String back = "/admin/workflows/" + wf;
        if (!ConsoleParams.confirmed(confirm)) {
            return find(wf).map(v -> {
                boolean open = !v.workflow().state().terminal();
                return confirm(wf, "cancel", open ? "Cancel this workflow?" : "Workflow already finished",
                        open ? "Every job of it not yet started, nested workflows' included, is cancelled and "
                                + "nothing further is enqueued; a job running now may finish."
                                : "It is " + v.workflow().state().wire() + "; there is nothing to cancel.",
                        open ? "Cancel workflow" : "", true);
            });
        }
        return workflows.cancel(wf).map(v -> Flash.redirect(back, "Workflow cancelled."));
    }

    @POST
    @Path("/retry-failed")
    public Uni<Response> retryFailed(@PathParam("id") String id, @FormParam("confirm") String confirm) {
        UUID wf = WorkflowsPage.workflowId(id);
        String back = "/admin/workflows/" + wf;
        return find(wf).flatMap(v -> {
            List<UUID> failed = v.report().failures().stream().map(f -> f.jobId()).toList();
            if (!ConsoleParams.confirmed(confirm)) {
                int n = failed.size();
                return Uni.createFrom().item(confirm(wf, "retry-failed", n == 0 ? "No failed jobs"
                        : "Retry " + n + " failed job" + (n == 1 ? "" : "s") + "?", n == 0
                        ? "No job of this workflow has failed for good."
                        : "Each of the " + n + " jobs that failed for good is re-enqueued as a new run, as the job"
                        + " page's retry does. The workflow keeps the outcome it recorded: it does not run the"
                        + " steps it cancelled, and its state stays " + v.workflow().state().wire() + ".",
                        n == 0 ? "" : "Retry " + n + " job" + (n == 1 ? "" : "s"), false));
            }
            String by = request.actor();
            Uni<int[]> done = Uni.createFrom().item(new int[2]);
            for (UUID job : failed) {
                done = done.flatMap(c -> operator.retry(job, by).map(x -> {
                    c[0]++;
                    return c;
                }).onFailure(OjsException.class).recoverWithItem(() -> {
                    c[1]++;
                    return c;
                }));
            }
            return done.map(c -> Flash.redirect(back, c[0] + " failed job" + (c[0] == 1 ? "" : "s")
                    + " re-enqueued" + (c[1] == 0 ? "." : "; " + c[1] + " could not be (moved or pruned meanwhile).")));
        });
    }

    private Uni<WorkflowView> find(UUID wf) {
        return workflows.find(wf).map(o -> o.orElseThrow(() -> OjsException.notFound("workflow", wf.toString())));
    }

    private Response confirm(UUID wf, String action, String title, String message, String button, boolean danger) {
        Chrome chrome = request.chrome("workflows");
        String target = button.isEmpty() ? null : "/admin/workflows/" + wf + "/actions/" + action;
        ConfirmView v = new ConfirmView(title, "Workflow " + wf + ". " + message, target,
                List.of(new Hidden("confirm", "yes")), button, danger, "/admin/workflows/" + wf);
        return Response.ok(Pages.confirm(chrome, v)).build();
    }
}
