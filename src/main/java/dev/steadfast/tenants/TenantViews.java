package dev.steadfast.tenants;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.domain.JobState;
import dev.steadfast.http.Timestamps;
import dev.steadfast.store.tenants.TenantStore;
import dev.steadfast.store.tenants.TenantStore.Limits;
import java.time.Duration;
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
    record Stats(String tenantId, long totalJobs, Jobs jobs, Map<String, Long> byState, long deadLetters,
                 Usages limits, Fairness fairness) {

        static Stats of(TenantService.Stats s) {
            Map<JobState, Long> all = s.all().byState();
            long waiting = all.get(JobState.AVAILABLE) + all.get(JobState.SCHEDULED) + all.get(JobState.RETRYABLE)
                    + all.get(JobState.PENDING);
            Jobs jobs = new Jobs(all.get(JobState.AVAILABLE), all.get(JobState.ACTIVE), all.get(JobState.SCHEDULED),
                    all.get(JobState.RETRYABLE), all.get(JobState.PENDING), s.day().byState().get(JobState.COMPLETED),
                    s.day().byState().get(JobState.DISCARDED));
            Map<String, Long> byState = new LinkedHashMap<>();
            long total = 0;
            for (JobState st : JobState.values()) {
                byState.put(st.wire(), all.get(st));
                total += all.get(st);
            }
            Limits l = s.config().map(TenantStore.Config::limits).orElse(Limits.NONE);
            Usages limits = new Usages(Usage.of(l.maxConcurrency(), all.get(JobState.ACTIVE)),
                    Usage.of(l.maxQueueDepth(), waiting), Usage.of(l.maxScheduled(), all.get(JobState.SCHEDULED)),
                    Rate.of(l));
            return new Stats(s.tenant(), total, jobs, byState, s.all().deadLetters(), limits,
                    new Fairness(s.config().map(TenantStore.Config::weight).orElse(1)));
        }
    }

    /** The jobs of 10.2: live ones by state, and those that completed or failed (were discarded) in 24 hours. */
    record Jobs(long available, long active, long scheduled, long retryable, long pending,
                @JsonProperty("completed_24h") long completed24h, @JsonProperty("failed_24h") long failed24h) {
    }

    /** The configured limits with what each counts now; a limit not set is left out. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Usages(Usage maxConcurrency, Usage maxQueueDepth, Usage maxScheduled, Rate maxEnqueueRate) {
    }

    /** {@code {"limit": n, "current": m}}. */
    record Usage(int limit, long current) {

        /** Null when the limit is not set. */
        static Usage of(Integer limit, long current) {
            return limit == null ? null : new Usage(limit, current);
        }
    }

    record Fairness(int weight) {
    }

    /** max_enqueue_rate as configured ({@code {"limit": 1000, "period": "PT1M"}}). */
    record Rate(int limit, String period) {

        /** Null when the tenant has no rate. */
        static Rate of(Limits l) {
            return l.enqueueRateLimit() == null ? null
                    : new Rate(l.enqueueRateLimit(), Duration.ofMillis(l.enqueueRatePeriodMs()).toString());
        }
    }

    /** A tenant's configuration (PUT, GET): {@code {"tenant": {...}}}. */
    record One(Config tenant) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Config(String tenantId, int fairnessWeight, ConfiguredLimits limits, String createdAt, String updatedAt) {

        static Config of(TenantStore.Config c) {
            Limits l = c.limits();
            return new Config(c.id(), c.weight(), new ConfiguredLimits(l.maxQueueDepth(), l.maxConcurrency(),
                    l.maxScheduled(), Rate.of(l)), Timestamps.format(c.createdAt()), Timestamps.format(c.updatedAt()));
        }
    }

    /** Every limit, null when not set. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record ConfiguredLimits(Integer maxQueueDepth, Integer maxConcurrency, Integer maxScheduled, Rate maxEnqueueRate) {
    }

    /** GET /ojs/v1/admin/tenants: every tenant with live jobs or a configuration, with its live jobs by state. */
    record All(List<Line> tenants) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Line(String tenantId, long liveJobs, Map<String, Long> jobs) {
    }
}
