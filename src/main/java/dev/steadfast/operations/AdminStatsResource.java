package dev.steadfast.operations;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobState;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.stats.MetricsSummary;
import dev.steadfast.stats.StatsService;
import dev.steadfast.work.HeartbeatService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /ojs/v1/admin/stats} (ojs-admin-api.md): how many queues and workers the server knows, jobs by state
 * across all queues (the shared depth count, {@code counts_as_of}) with dead letters, and throughput as the last
 * hour's average per minute: {@code processed_per_minute} completed, {@code failed_per_minute} failed for good
 * (discarded or dead-lettered), the same windows as {@code /ojs/v1/admin/metrics/summary}.
 */
@Path("/ojs/v1/admin/stats")
@RolesAllowed({Roles.READONLY, Roles.ADMIN})
class AdminStatsResource {

    /** Workers listed for the count; a fleet larger than this is reported as this many. */
    static final int MAX_WORKERS = 10_000;

    private final StatsService stats;
    private final HeartbeatService workers;
    private final ObjectMapper json;

    public AdminStatsResource(StatsService stats, HeartbeatService workers, ObjectMapper json) {
        this.stats = stats;
        this.workers = workers;
        this.json = json;
    }

    @GET
    public Uni<Response> stats() {
        return Uni.combine().all().unis(stats.summary(), stats.queues(), workers.workers(MAX_WORKERS)).asTuple()
                .map(t -> {
                    MetricsSummary s = t.getItem1();
                    Map<JobState, Long> totals = new EnumMap<>(JobState.class);
                    for (JobState st : JobState.values()) {
                        totals.put(st, 0L);
                    }
                    s.counts().byQueue().values().forEach(m -> m.forEach((st, n) -> totals.merge(st, n, Long::sum)));
                    Map<String, Long> jobs = new LinkedHashMap<>();
                    totals.forEach((st, n) -> jobs.put(st.wire(), n));
                    jobs.put("dead_letter", s.counts().deadLetters().values().stream().mapToLong(Long::longValue).sum());
                    MetricsSummary.Window hour = s.lastHour();
                    OperationsViews.Throughput throughput = new OperationsViews.Throughput(hour.completed() / 60.0,
                            hour.failed() / 60.0, 60);
                    return Responses.ok(json, new OperationsViews.StatsView(t.getItem2().size(),
                            t.getItem3().size(), jobs, throughput, Timestamps.format(s.counts().at())));
                });
    }
}
