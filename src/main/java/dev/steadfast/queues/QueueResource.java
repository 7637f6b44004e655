package dev.steadfast.queues;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.QueueBound;
import dev.steadfast.http.OffsetPagination;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.stats.JobCounts;
import dev.steadfast.store.queues.QueueRow;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * Queues in the HTTP binding's shapes (ojs-http-binding.md 11.1 to 11.4): the list, stats, pause and resume. A
 * paused queue still accepts jobs (they accumulate as available, as the admin API says) rather than answering
 * 422 queue_paused; see docs/reference/protocol-notes.md.
 */
@Path("/ojs/v1/queues")
public class QueueResource {

    private final QueueService queues;
    private final ObjectMapper json;
    private final Backpressure backpressure;

    public QueueResource(QueueService queues, ObjectMapper json, Backpressure backpressure) {
        this.backpressure = backpressure;
        this.queues = queues;
        this.json = json;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list() {
        return queues.list().map(rows -> {
            List<QueueViews.Line> out = new ArrayList<>(rows.size());
            for (QueueRow q : rows) {
                out.add(new QueueViews.Line(q.name(), q.paused() ? "paused" : "active", q.paused(),
                        Timestamps.format(q.createdAt())));
            }
            return Responses.ok(json, new QueueViews.QueueList(out,
                    new OffsetPagination(out.size(), out.size(), 0, false)));
        });
    }

    /**
     * Queue statistics (ojs-http-binding.md 11.2): {@code queue} is the OpenAPI {@code QueueStatsResponse} object
     * (name, paused and the count of every state), {@code stats} the binding document's flat counts; both are
     * counted now, not cached.
     */
    @GET
    @Path("/{name}/stats")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> stats(@PathParam("name") String name) {
        return queues.depth(name).flatMap(d -> backpressure.bound(d.queue().name()).map(bound -> {
            JobCounts counts = JobCounts.of(d.counts(), true);
            String status = d.queue().paused() ? "paused" : "active";
            QueueViews.StatsQueue q = new QueueViews.StatsQueue(d.queue().name(), status, d.queue().paused(), counts,
                    Timestamps.format(d.queue().pausedAt()));
            // ojs-backpressure.md 7: the waiting jobs and the bound they are held to
            long depth = 0;
            for (JobState s : new JobState[] {JobState.AVAILABLE, JobState.SCHEDULED, JobState.RETRYABLE,
                JobState.PENDING}) {
                depth += d.counts().byState().getOrDefault(s, 0L);
            }
            QueueViews.Depth stats = new QueueViews.Depth(d.queue().name(), depth,
                    bound.map(QueueBound::maxDepth).orElse(null), counts);
            return Responses.ok(json, new QueueViews.Stats(q, status, stats, Timestamps.format(d.computedAt())));
        }));
    }

    /** Pause (11.3): the queue object of the OpenAPI {@code QueuePauseResumeResponse}, plus when. */
    @POST
    @Path("/{name}/pause")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> pause(@PathParam("name") String name) {
        return queues.pause(name, "api").map(q -> Responses.ok(json, new QueueViews.Changed(
                QueueViews.Queue.of(q.name(), true, Timestamps.format(q.pausedAt()), null))));
    }

    /** Resume (11.4), the same shape as pause. */
    @POST
    @Path("/{name}/resume")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> resume(@PathParam("name") String name) {
        return queues.resume(name, "api").map(q -> Responses.ok(json, new QueueViews.Changed(
                QueueViews.Queue.of(q.name(), false, null, Timestamps.format(queues.now())))));
    }
}
