package dev.steadfast.console.jobs;

import dev.steadfast.console.Chrome;
import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Format;
import dev.steadfast.console.Pages;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.Progress;
import dev.steadfast.http.Timestamps;
import dev.steadfast.jobs.JobService;
import dev.steadfast.model.QueueRow;
import dev.steadfast.operations.JobSearchService;
import dev.steadfast.queues.QueueService;
import dev.steadfast.stats.DepthCounts;
import dev.steadfast.work.ProgressService;
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
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code /admin/jobs}: browse and search jobs (state tabs with counts, filters, text and args search, keyset
 * pages), and one job's page. The actions on a job live in {@link JobActionsPage}, those on many in
 * {@link JobBulkPage}.
 */
@Path("/admin/jobs")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class JobsPage {

    static final int PAGE_SIZE = 50;

    private final JobSearchService search;
    private final JobService jobs;
    private final QueueService queues;
    private final JobDetails details;
    private final ConsoleRequest request;
    private final Clock clock;
    private final WorkflowService workflows;
    private final ProgressService progress;
    private final DepthCounts counts;

    public JobsPage(JobSearchService search, JobService jobs, QueueService queues, JobDetails details,
                    ConsoleRequest request, Clock clock, WorkflowService workflows,
                    ProgressService progress, DepthCounts counts) {
        this.counts = counts;
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
        UUID id = query.search().args().isEmpty() ? ConsoleParams.maybeId(query.text()) : null;
        if (id != null) {
            return jobs.info(id).map(j -> Response.seeOther(URI.create("/admin/jobs/" + id)).build())
                    .onFailure(OjsException.class).recoverWithUni(e -> render(chrome, query,
                            List.of(), null, null, "No job has id " + id + " (it may have been pruned)."));
        }
        return search.page(query.filter(), query.oldest(), query.after(), query.before(), PAGE_SIZE)
                .flatMap(p -> render(chrome, query, p.jobs().stream().map(j -> JobLine.of(j, clock.instant()))
                        .toList(), p.nextCursor(), p.prevCursor(), p.jobs().isEmpty() ? p.searchedTo() != null
                        ? "No match among the jobs searched on this page." : query.filtered()
                        ? "No job matches this filter." : "No jobs yet." : null, searchNote(p.searchedTo(),
                        query.oldest())));
    }

    /**
     * What a listing that stopped short on this page searched: today's finished jobs have no search or filter index,
     * and the live ones no search index (a day's are built once it has ended), so they are read a few thousand per
     * page.
     */
    static String searchNote(Instant searchedTo, boolean oldest) {
        if (searchedTo == null) {
            return null;
        }
        return "Searched the jobs created " + (oldest ? "up to " : "since ")
                + Timestamps.format(searchedTo)
                + ". Today's finished jobs (and live ones for a text search) are searched a few thousand per page"
                + " (their indexes are built once their day has ended): Next goes on.";
    }

    private Uni<Response> render(Chrome chrome, JobListQuery query, List<JobLine> lines, String next, String prev,
                                 String message) {
        return render(chrome, query, lines, next, prev, message, null);
    }

    private Uni<Response> render(Chrome chrome, JobListQuery query, List<JobLine> lines, String next, String prev,
                                 String message, String searchNote) {
        return queues.list().flatMap(qs -> counts.get().map(snapshot -> Response.ok(Pages.jobs(chrome,
                new JobListView(query, JobListView.stateNames(), qs.stream().map(QueueRow::name).toList(),
                        tabs(query, snapshot), countsNote(query, snapshot), lines,
                        next == null ? null : query.href(next, null), prev == null ? null : query.href(null, prev),
                        query.href(null, null), message, searchNote))).build()));
    }

    /** The tabs' order: waiting, running, then finished. */
    static final List<JobState> TAB_ORDER = List.of(JobState.AVAILABLE, JobState.SCHEDULED, JobState.PENDING,
            JobState.ACTIVE, JobState.RETRYABLE, JobState.COMPLETED, JobState.CANCELLED, JobState.DISCARDED);

    /**
     * The state tabs, counted from the shared depth counts (DepthCounts: one count of the whole table per
     * steadfast.console.counts-max-age, never one per request): every job, or the filter's queue's.
     */
    static List<JobListView.Tab> tabs(JobListQuery query, DepthCounts.Snapshot snapshot) {
        Map<JobState, Long> byState = new EnumMap<>(JobState.class);
        snapshot.byQueue().forEach((queue, states) -> {
            if (query.queue() == null || query.queue().equals(queue)) {
                states.forEach((s, n) -> byState.merge(s, n, Long::sum));
            }
        });
        long all = byState.values().stream().mapToLong(Long::longValue).sum();
        List<JobListView.Tab> tabs = new ArrayList<>();
        tabs.add(new JobListView.Tab("", "All", Format.count(all), query.hrefForState(""), query.state() == null));
        for (JobState s : TAB_ORDER) {
            tabs.add(new JobListView.Tab(s.wire(), s.wire(), Format.count(byState.getOrDefault(s, 0L)),
                    query.hrefForState(s.wire()), s == query.state()));
        }
        return tabs;
    }

    private String countsNote(JobListQuery query, DepthCounts.Snapshot snapshot) {
        boolean narrower = query.type() != null || query.tag() != null || query.from() != null || query.to() != null
                || query.q() != null;
        return "Counts of every job" + (query.queue() == null ? "" : " in queue " + query.queue())
                + (narrower ? " (not narrowed by the other filters)" : "") + ", as of "
                + Format.relative(snapshot.at(), clock.instant()) + ".";
    }

    @GET
    @Path("/{id}")
    public Uni<TemplateInstance> job(@PathParam("id") String id) {
        Chrome chrome = request.chrome("jobs");
        Instant now = clock.instant();
        UUID jobId = ConsoleParams.jobId(id);
        return jobs.info(jobId).flatMap(j -> workflows.workflowOf(jobId).flatMap(w -> w.isEmpty()
                        ? Uni.createFrom().item((WorkflowPanel) null)
                        : workflows.find(w.get()).map(v -> v.map(x -> WorkflowPanel.of(x, jobId)).orElse(null)))
                .flatMap(panel -> reported(jobId).map(p -> Pages.job(chrome, details.of(j, p, now), panel))));
    }

    /** The progress visible for the job's current attempt; null when none (or the job was deleted meanwhile). */
    private Uni<Progress> reported(UUID jobId) {
        return progress.get(jobId).map(ProgressService.View::progress)
                .onFailure(OjsException.class).recoverWithNull();
    }
}
