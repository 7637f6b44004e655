package dev.steadfast.tenants;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.domain.JobState;
import dev.steadfast.http.Timestamps;
import dev.steadfast.store.tenants.TenantStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The answers of the tenant admin API (ojs-multi-tenancy.md 10). */
final class TenantViews {

    private TenantViews() {
    }

    /**
     * GET /ojs/v1/admin/tenants/{id}/stats: {@code jobs} as in 10.2 (available, active, scheduled, completed_24h,
     * failed_24h: discarded in the last 24 hours), every state's count in {@code by_state} (live and kept finished
     * jobs), {@code total_jobs} their sum, the tenant's limits ({@code {"limit": n, "current": m}}: active jobs for
     * max_concurrency, waiting ones for max_queue_depth) and fairness weight.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Stats(String tenantId, long totalJobs, Map<String, Long> jobs, Map<String, Long> byState,
                 long deadLetters, Map<String, Object> limits, Map<String, Object> fairness) {

        static Stats of(TenantService.Stats s) {
            Map<JobState, Long> all = s.all().byState();
            long waiting = all.get(JobState.AVAILABLE) + all.get(JobState.SCHEDULED) + all.get(JobState.RETRYABLE)
                    + all.get(JobState.PENDING);
            Map<String, Long> jobs = new LinkedHashMap<>();
            jobs.put("available", all.get(JobState.AVAILABLE));
            jobs.put("active", all.get(JobState.ACTIVE));
            jobs.put("scheduled", all.get(JobState.SCHEDULED));
            jobs.put("retryable", all.get(JobState.RETRYABLE));
            jobs.put("pending", all.get(JobState.PENDING));
            jobs.put("completed_24h", s.day().byState().get(JobState.COMPLETED));
            jobs.put("failed_24h", s.day().byState().get(JobState.DISCARDED));
            Map<String, Long> byState = new LinkedHashMap<>();
            long total = 0;
            for (JobState st : JobState.values()) {
                byState.put(st.wire(), all.get(st));
                total += all.get(st);
            }
            Map<String, Object> limits = new LinkedHashMap<>();
            s.config().map(TenantStore.Config::maxConcurrency).ifPresent(max -> limits.put("max_concurrency",
                    Map.of("limit", max, "current", all.get(JobState.ACTIVE))));
            s.config().map(TenantStore.Config::maxQueueDepth).ifPresent(max -> limits.put("max_queue_depth",
                    Map.of("limit", max, "current", waiting)));
            s.config().map(c -> c.limits().maxScheduled()).ifPresent(max -> limits.put("max_scheduled",
                    Map.of("limit", max, "current", all.get(JobState.SCHEDULED))));
            s.config().map(c -> rate(c.limits())).ifPresent(rate -> limits.put("max_enqueue_rate", rate));
            Map<String, Object> fairness = Map.of("weight", s.config().map(TenantStore.Config::weight).orElse(1));
            return new Stats(s.tenant(), total, jobs, byState, s.all().deadLetters(), limits, fairness);
        }
    }

    /** max_enqueue_rate as configured ({@code {"limit": 1000, "period": "PT1M"}}), or null. */
    static Map<String, Object> rate(TenantStore.Limits l) {
        if (l.enqueueRateLimit() == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("limit", l.enqueueRateLimit());
        m.put("period", java.time.Duration.ofMillis(l.enqueueRatePeriodMs()).toString());
        return m;
    }

    /** A tenant's configuration (PUT, GET): {@code {"tenant": {...}}}. */
    record One(Config tenant) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Config(String tenantId, int fairnessWeight, Map<String, Object> limits, String createdAt,
                  String updatedAt) {

        static Config of(TenantStore.Config c) {
            Map<String, Object> limits = new LinkedHashMap<>();
            limits.put("max_queue_depth", c.maxQueueDepth());
            limits.put("max_concurrency", c.maxConcurrency());
            limits.put("max_scheduled", c.limits().maxScheduled());
            limits.put("max_enqueue_rate", rate(c.limits()));
            return new Config(c.id(), c.weight(), limits, Timestamps.format(c.createdAt()),
                    Timestamps.format(c.updatedAt()));
        }
    }

    /** GET /ojs/v1/admin/tenants: every tenant with live jobs or a configuration, with its live jobs by state. */
    record All(List<Line> tenants) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Line(String tenantId, long liveJobs, Map<String, Long> jobs) {
    }
}
