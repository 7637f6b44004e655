package dev.steadfast.operations;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.events.JobEvent;
import java.util.List;
import java.util.Map;

/**
 * The wire shapes of health, readiness and the admin statistics. Job counts keyed by state stay maps: their keys
 * are the states, not fixed fields.
 */
final class OperationsViews {

    private OperationsViews() {
    }

    /** {@code GET /ojs/v1/health}; {@code shutting_down} only while draining. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Health(String status, String version, long uptimeSeconds, Backend backend,
                  @JsonInclude(JsonInclude.Include.NON_NULL) Boolean shuttingDown) {
    }

    /** The database's part of a health answer: {@code connected}, {@code latency_ms}, {@code error} when known. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Backend(String type, String status, Boolean connected, Long latencyMs, String error) {
    }

    /** {@code GET /ready}: the status, the database and the maintenance tasks' readiness. */
    record Ready(String status, Backend backend, Maintenance maintenance) {
    }

    /** The maintenance readiness check: its status and the check's own data fields beside it. */
    record Maintenance(String status, @JsonIgnore Map<String, Object> data) {

        @JsonAnyGetter
        public Map<String, Object> fields() {
            return data == null ? Map.of() : data;
        }
    }

    /** {@code GET /ojs/v1/admin/metrics/summary}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record MetricsView(String asOf, String countsAsOf, Map<String, Long> totals, Map<String, QueueMetrics> queues,
                       DeadLetters deadLetter, Window lastHour, Window lastDay) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record QueueMetrics(Map<String, Long> counts, long deadLetter) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record DeadLetters(long total, long addedLastHour, long addedLastDay) {
    }

    /** {@code failure_rate} is null when nothing finished in the window. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Window(long completed, long failed, Double failureRate) {
    }

    /** {@code GET /ojs/v1/admin/stats}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record StatsView(int queues, int workers, Map<String, Long> jobs, Throughput throughput, String countsAsOf) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Throughput(double processedPerMinute, double failedPerMinute, int windowMinutes) {
    }

    /** {@code GET /ojs/v1/events}: a page of CloudEvents and the cursor to continue from (null when none). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record EventPage(List<JobEvent.CloudEvent> events, String cursor, boolean hasMore) {
    }
}
