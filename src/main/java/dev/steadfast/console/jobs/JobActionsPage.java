package dev.steadfast.console.jobs;

import dev.steadfast.console.Chrome;
import dev.steadfast.console.ConfirmView;
import dev.steadfast.console.ConfirmView.Hidden;
import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Flash;
import dev.steadfast.console.Links;
import dev.steadfast.console.Pages;
import dev.steadfast.jobs.JobService;
import dev.steadfast.model.JobRow;
import dev.steadfast.operations.OperatorService;
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
import java.util.function.Function;

/**
 * The job page's buttons: retry, cancel, delete, through the same {@link OperatorService} as the admin API. Each
 * POST without {@code confirm=yes} changes nothing and answers a confirmation page whose form repeats the request
 * with that field; with it, the action runs and the browser is sent back with a message. (The path has its own
 * segment so that it never overlaps {@link JobsPage}'s {@code /admin/jobs/{id}}.)
 */
@Path("/admin/jobs/{id}/actions")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class JobActionsPage {

    private final OperatorService operator;
    private final JobService jobs;
    private final ConsoleRequest request;

    public JobActionsPage(OperatorService operator, JobService jobs, ConsoleRequest request) {
        this.operator = operator;
        this.jobs = jobs;
        this.request = request;
    }

    @POST
    @Path("/retry")
    public Uni<Response> retry(@PathParam("id") String id, @FormParam("confirm") String confirm) {
        UUID job = ConsoleParams.jobId(id);
        if (!ConsoleParams.confirmed(confirm)) {
            return confirm(job, "retry", j -> {
                JobDetailView.Actions a = JobDetails.actions(j);
                return new String[] {a.retry() ? a.retryLabel() + "?" : "Retry job?", a.retry() ? a.retryExplain()
                        : "A " + j.state().wire() + " job cannot be retried.", a.retry() ? a.retryLabel() : ""};
            }, false);
        }
        return operator.retry(job, request.actor()).map(j -> Flash.redirect("/admin/jobs/" + job,
                "Job re-enqueued: it is " + j.state().wire() + " now (run " + j.run() + ")."));
    }

    @POST
    @Path("/cancel")
    public Uni<Response> cancel(@PathParam("id") String id, @FormParam("confirm") String confirm) {
        UUID job = ConsoleParams.jobId(id);
        if (!ConsoleParams.confirmed(confirm)) {
            return confirm(job, "cancel", j -> new String[] {"Cancel this job?", "The " + j.state().wire()
                    + " job will not run again unless an operator re-enqueues it. A worker holding it finds out when"
                    + " it next reports.", "Cancel job"}, true);
        }
        return operator.cancel(job, request.actor()).map(c -> Flash.redirect("/admin/jobs/" + job,
                "Job cancelled (it was " + c.previousState().wire() + ")."));
    }

    @POST
    @Path("/delete")
    public Uni<Response> delete(@PathParam("id") String id, @FormParam("confirm") String confirm) {
        UUID job = ConsoleParams.jobId(id);
        if (!ConsoleParams.confirmed(confirm)) {
            return confirm(job, "delete", j -> new String[] {"Delete this job for good?", "The " + j.state().wire()
                    + " job " + j.type() + " and its error history are removed. This cannot be undone.",
                    "Delete job"}, true);
        }
        return operator.delete(job, request.actor()).map(j -> Flash.redirect(
                Links.to("/admin/jobs").with("queue", j.queue()).toString(), "Deleted job " + job + "."));
    }

    /** The confirmation page: {title, message, button} from the job as it is now. */
    private Uni<Response> confirm(UUID id, String action, Function<JobRow, String[]> text, boolean danger) {
        Chrome chrome = request.chrome("jobs");
        return jobs.info(id).map(j -> {
            String[] t = text.apply(j);
            String about = "Job " + j.type() + " " + j.id() + " in queue " + j.queue() + ". ";
            String target = t[2].isEmpty() ? null : "/admin/jobs/" + id + "/actions/" + action;
            ConfirmView v = new ConfirmView(t[0], about + t[1], target, List.of(new Hidden("confirm", "yes")), t[2],
                    danger, "/admin/jobs/" + id);
            return Response.ok(Pages.confirm(chrome, v)).build();
        });
    }
}
