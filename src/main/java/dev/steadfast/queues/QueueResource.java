package dev.steadfast.queues;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.QueueBound;
import dev.steadfast.domain.TenantId;
import dev.steadfast.http.OffsetPagination;
import dev.steadfast.http.RequestContext;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.model.QueueRow;
import dev.steadfast.stats.JobCounts;
import dev.steadfast.stats.StateCounts;
import dev.steadfast.tenants.TenantService;
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
class QueueResource {

    private final QueueService queues;
    private final ObjectMapper json;
    private final Backpressure backpressure;
    private final TenantService tenants;

    public QueueResource(QueueService queues, ObjectMapper json, Backpressure backpressure, TenantService tenants) {
        this.tenants = tenants;
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
        return depth(name).flatMap(d -> backpressure.bound(d.queue().name()).map(bound -> {
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

    /**
     * A queue (ojs-multi-tenancy.md 10, as the conformance suite reads it): the same answer as its stats. With an
     * X-OJS-Tenant header, both count only that tenant's jobs.
     */
    @GET
    @Path("/{name}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("name") String name) {
        return stats(name);
    }

    /** The queue's depth; of the caller's tenant's jobs only when the request names one (X-OJS-Tenant). */
    private Uni<QueueService.Depth> depth(String name) {
        String tenant = RequestContext.tenantHeader();
        if (tenant == null) {
            return queues.depth(name);
        }
        return Uni.createFrom().item(() -> TenantId.check(TenantId.HEADER, tenant))
                .flatMap(t -> queues.depth(name).flatMap(d -> tenants.queueCounts(t, name).map(c ->
                        new QueueService.Depth(d.queue(), new StateCounts(name, c.byState(), c.deadLetters()),
                                d.computedAt()))));
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
