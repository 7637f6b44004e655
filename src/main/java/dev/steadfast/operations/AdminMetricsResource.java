package dev.steadfast.operations;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobState;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.stats.MetricsSummary;
import dev.steadfast.stats.StatsService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code GET /ojs/v1/admin/metrics/summary} (Flare's metrics summary): jobs by state in total and per queue, dead
 * letters with their growth over the last hour and day, and completed / failed-for-good counts and failure rate
 * over the same windows. The per-queue counts are the shared depth count (at most
 * steadfast.console.counts-max-age old, {@code counts_as_of}); the rest is counted per request.
 */
@Path("/ojs/v1/admin/metrics")
@RolesAllowed({Roles.READONLY, Roles.ADMIN})
class AdminMetricsResource {

    private final StatsService stats;
    private final ObjectMapper json;

    public AdminMetricsResource(StatsService stats, ObjectMapper json) {
        this.stats = stats;
        this.json = json;
    }

    @GET
    @Path("/summary")
    public Uni<Response> summary() {
        return stats.summary().map(s -> Responses.ok(json, view(s)));
    }

    static OperationsViews.MetricsView view(MetricsSummary s) {
        Map<String, Long> totals = zeroes();
        Map<String, OperationsViews.QueueMetrics> queues = new TreeMap<>();
        s.counts().byQueue().forEach((q, byState) -> {
            Map<String, Long> counts = zeroes();
            byState.forEach((state, n) -> {
                counts.put(state.wire(), n);
                totals.merge(state.wire(), n, Long::sum);
            });
            queues.put(q, new OperationsViews.QueueMetrics(counts, s.counts().deadLetters().getOrDefault(q, 0L)));
        });
        return new OperationsViews.MetricsView(Timestamps.format(s.at()), Timestamps.format(s.counts().at()), totals,
                queues, new OperationsViews.DeadLetters(s.deadLetters().total(), s.deadLetters().sinceHour(),
                        s.deadLetters().sinceDay()), window(s.lastHour()), window(s.lastDay()));
    }

    private static OperationsViews.Window window(MetricsSummary.Window w) {
        return new OperationsViews.Window(w.completed(), w.failed(), w.failureRate());
    }

    private static Map<String, Long> zeroes() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (JobState st : JobState.values()) {
            m.put(st.wire(), 0L);
        }
        return m;
    }
}
