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
public class AdminMetricsResource {

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

    static Map<String, Object> view(MetricsSummary s) {
        Map<String, Long> totals = zeroes();
        Map<String, Object> queues = new TreeMap<>();
        s.counts().byQueue().forEach((q, byState) -> {
            Map<String, Long> counts = zeroes();
            byState.forEach((state, n) -> {
                counts.put(state.wire(), n);
                totals.merge(state.wire(), n, Long::sum);
            });
            Map<String, Object> queue = new LinkedHashMap<>();
            queue.put("counts", counts);
            queue.put("dead_letter", s.counts().deadLetters().getOrDefault(q, 0L));
            queues.put(q, queue);
        });
        Map<String, Object> dead = new LinkedHashMap<>();
        dead.put("total", s.deadLetters().total());
        dead.put("added_last_hour", s.deadLetters().sinceHour());
        dead.put("added_last_day", s.deadLetters().sinceDay());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("as_of", Timestamps.format(s.at()));
        out.put("counts_as_of", Timestamps.format(s.counts().at()));
        out.put("totals", totals);
        out.put("queues", queues);
        out.put("dead_letter", dead);
        out.put("last_hour", window(s.lastHour()));
        out.put("last_day", window(s.lastDay()));
        return out;
    }

    private static Map<String, Object> window(MetricsSummary.Window w) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("completed", w.completed());
        out.put("failed", w.failed());
        out.put("failure_rate", w.failureRate());
        return out;
    }

    private static Map<String, Long> zeroes() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (JobState st : JobState.values()) {
            m.put(st.wire(), 0L);
        }
        return m;
    }
}
