package dev.steadfast.cron;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.OffsetPagination;
import java.util.List;

/**
 * A cron schedule on the wire (built by {@link CronJson}): {@code args}, {@code meta} and {@code options} come
 * from the stored template and are null when it has none, {@code next_run_at} is null while paused,
 * {@code last_run_at} before the first run; {@code description}, {@code queued_occurrences},
 * {@code last_job_id} and {@code last_occurrence} are left out when they do not apply.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
record CronView(String name, String cron, String expression, String timezone, String type, JsonNode args,
                JsonNode meta, JsonNode options, JsonNode jobTemplate, String overlapPolicy, boolean enabled,
                String status, @JsonInclude(JsonInclude.Include.NON_NULL) String description, String nextRunAt,
                String lastRunAt, long runCount, @JsonInclude(JsonInclude.Include.NON_NULL) Long queuedOccurrences,
                String createdAt, @JsonUnwrapped LastJob lastJob,
                @JsonInclude(JsonInclude.Include.NON_NULL) LastOccurrence lastOccurrence) {

    /** The job of the last run; its state is null once that job is gone. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record LastJob(String lastJobId, String lastJobState) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record LastOccurrence(String outcome, String scheduledTime, String reason) {
    }

    /** Register, get, pause and resume: the schedule under both names clients read; delete adds the last two. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Answer(CronView cronJob, CronView cron,
                  Boolean deleted, String name) {

        static Answer of(CronView v) {
            return new Answer(v, v, null, null);
        }
    }

    /** The list, under both names clients read. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Page(List<CronView> cronJobs, List<CronView> crons, OffsetPagination pagination) {
    }
}
