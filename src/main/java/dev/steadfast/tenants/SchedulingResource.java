package dev.steadfast.tenants;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.model.Dispatch;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GET /ojs/v1/admin/scheduling/stats (ojs-fair-scheduling.md 10.2): the last minute's dispatches per queue (count,
 * share, average wait from available to started, active jobs now) as {@code queues} and {@code window}, the same
 * per tenant as {@code tenants}, all of it again under {@code stats} (what the conformance suite reads).
 */
@Path("/ojs/v1/admin/scheduling/stats")
class SchedulingResource {

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record QueueLine(String name, @JsonProperty("dispatch_count_1m") long dispatchCount1m,
                     @JsonProperty("dispatch_ratio_1m") double dispatchRatio1m, long avgWaitMs, long activeJobs) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TenantLine(String tenantId, @JsonProperty("dispatch_count_1m") long dispatchCount1m,
                      @JsonProperty("dispatch_ratio_1m") double dispatchRatio1m, long avgWaitMs) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Stats(List<QueueLine> queues, List<TenantLine> tenants, String window, String since, boolean fairClaim) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Answer(List<QueueLine> queues, String window, Stats stats) {
    }

    private final SchedulingService scheduling;
    private final TenantsConfig config;
    private final ObjectMapper json;

    public SchedulingResource(SchedulingService scheduling, TenantsConfig config, ObjectMapper json) {
        this.scheduling = scheduling;
        this.config = config;
        this.json = json;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> stats() {
        return scheduling.window().map(w -> {
            long total = w.dispatches().stream().mapToLong(Dispatch::count).sum();
            Map<String, long[]> byQueue = new LinkedHashMap<>(); // count, wait sum
            Map<String, long[]> byTenant = new LinkedHashMap<>();
            for (Dispatch d : w.dispatches()) {
                long[] q = byQueue.computeIfAbsent(d.queue(), k -> new long[2]);
                q[0] += d.count();
                q[1] += Math.round(d.avgWaitMs() * d.count());
                if (d.tenant() != null) {
                    long[] t = byTenant.computeIfAbsent(d.tenant(), k -> new long[2]);
                    t[0] += d.count();
                    t[1] += Math.round(d.avgWaitMs() * d.count());
                }
            }
            Map<String, Long> active = new LinkedHashMap<>();
            w.active().forEach(a -> {
                active.put(a.queue(), a.count());
                byQueue.computeIfAbsent(a.queue(), k -> new long[2]);
            });
            List<QueueLine> queues = new ArrayList<>();
            byQueue.forEach((q, v) -> queues.add(new QueueLine(q, v[0], ratio(v[0], total), v[0] == 0 ? 0 : v[1] / v[0],
                    active.getOrDefault(q, 0L))));
            List<TenantLine> tenants = new ArrayList<>();
            byTenant.forEach((t, v) -> tenants.add(new TenantLine(t, v[0], ratio(v[0], total), v[1] / v[0])));
            String window = "PT1M";
            return Responses.ok(json, new Answer(queues, window, new Stats(queues, tenants, window,
                    Timestamps.format(w.since()), config.fairClaim())));
        });
    }

    private static double ratio(long n, long total) {
        return total == 0 ? 0 : Math.round(n * 1000.0 / total) / 1000.0;
    }
}
