package dev.steadfast.console.jobs;

import dev.steadfast.console.Chrome;
import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Pages;
import dev.steadfast.domain.Progress;
import dev.steadfast.jobs.JobService;
import dev.steadfast.operations.JobSearchService;
import dev.steadfast.queues.QueueService;
import dev.steadfast.store.queues.QueueRow;
import dev.steadfast.work.ProgressService;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * {@code /admin/jobs}: browse and search jobs (filters, text search, keyset pages), and one job's page. The
 * actions on a job live in {@link JobActionsPage}.
 */
@Path("/admin/jobs")
@Produces(MediaType.TEXT_HTML)
@PermitAll
public class JobsPage {

    static final int PAGE_SIZE = 50;

    private final JobSearchService search;
    private final JobService jobs;
    private final QueueService queues;
    private final JobDetails details;
    private final ConsoleRequest request;
    private final Clock clock;
    private final dev.steadfast.workflows.WorkflowService workflows;
    private final ProgressService progress;

    public JobsPage(JobSearchService search, JobService jobs, QueueService queues, JobDetails details,
                    ConsoleRequest request, Clock clock, dev.steadfast.workflows.WorkflowService workflows,
                    ProgressService progress) {
        this.workflows = workflows;
        this.progress = progress;
        this.search = search;
        this.jobs = jobs;
        this.queues = queues;
        this.details = details;
        this.request = request;
        this.clock = clock;
    }

    @GET
    public Uni<Response> list(@QueryParam("state") String state, @QueryParam("queue") String queue,
                              @QueryParam("type") String type, @QueryParam("tag") String tag,
                              @QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("q") String q,
                              @QueryParam("sort") String sort, @QueryParam("after") String after,
                              @QueryParam("before") String before) {
        JobListQuery query = JobListQuery.parse(state, queue, type, tag, from, to, q, sort, after, before);
        Chrome chrome = request.chrome("jobs");
        UUID id = ConsoleParams.maybeId(query.q());
        if (id != null) {
            return jobs.info(id).map(j -> Response.seeOther(URI.create("/admin/jobs/" + id)).build())
                    .onFailure(dev.steadfast.domain.OjsException.class).recoverWithUni(e -> render(chrome, query,
                            List.of(), null, null, "No job has id " + id + " (it may have been pruned)."));
        }
        return search.page(query.filter(), query.oldest(), query.after(), query.before(), PAGE_SIZE)
                .flatMap(p -> render(chrome, query, p.jobs().stream().map(j -> JobLine.of(j, clock.instant()))
                        .toList(), p.nextCursor(), p.prevCursor(), p.jobs().isEmpty()
                        ? (query.filtered() ? "No job matches this filter." : "No jobs yet.") : null));
    }

    private Uni<Response> render(Chrome chrome, JobListQuery query, List<JobLine> lines, String next, String prev,
                                 String message) {
        return queues.list().map(qs -> Response.ok(Pages.jobs(chrome, new JobListView(query,
                JobListView.stateNames(), qs.stream().map(QueueRow::name).toList(), lines,
                next == null ? null : query.href(next, null), prev == null ? null : query.href(null, prev),
                query.href(null, null), message))).build());
    }

    @GET
    @Path("/{id}")
    public Uni<TemplateInstance> job(@PathParam("id") String id) {
        Chrome chrome = request.chrome("jobs");
        Instant now = clock.instant();
        java.util.UUID jobId = ConsoleParams.jobId(id);
        return jobs.info(jobId).flatMap(j -> workflows.workflowOf(jobId).flatMap(w -> w.isEmpty()
                        ? Uni.createFrom().item((WorkflowPanel) null)
                        : workflows.find(w.get()).map(v -> v.map(x -> WorkflowPanel.of(x, jobId)).orElse(null)))
                .flatMap(panel -> reported(jobId).map(p -> Pages.job(chrome, details.of(j, p, now), panel))));
    }

    /** The progress visible for the job's current attempt; null when none (or the job was deleted meanwhile). */
    private Uni<Progress> reported(UUID jobId) {
        return progress.get(jobId).map(ProgressService.View::progress)
                .onFailure(dev.steadfast.domain.OjsException.class).recoverWithNull();
    }
}
