package dev.steadfast.queues;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.OffsetPagination;
import dev.steadfast.stats.JobCounts;
import java.util.List;

/** The data plane's queue answers (ojs-http-binding.md 11): the list, a queue's stats, pause and resume. */
final class QueueViews {

    private QueueViews() {
    }

    record QueueList(List<Line> queues, OffsetPagination pagination) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Line(String name, String status, boolean paused, String createdAt) {
    }

    /** Pause and resume: {@code {"queue": {name, status, paused, paused_at | resumed_at}}}. */
    record Changed(Queue queue) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Queue(String name, String status, boolean paused, String pausedAt, String resumedAt) {

        static Queue of(String name, boolean paused, String pausedAt, String resumedAt) {
            return new Queue(name, paused ? "paused" : "active", paused, pausedAt, resumedAt);
        }
    }

    /**
     * A queue's stats: {@code queue} is the OpenAPI {@code QueueStatsResponse} object, {@code stats} the binding
     * document's flat counts with the backpressure depth and bound ({@code max_depth} null when unbounded).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Stats(StatsQueue queue, String status, Depth stats, String computedAt) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record StatsQueue(String name, String status, boolean paused, @JsonUnwrapped JobCounts counts,
                      @JsonInclude(JsonInclude.Include.ALWAYS) String pausedAt) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Depth(String queue, long depth, @JsonInclude(JsonInclude.Include.ALWAYS) Integer maxDepth,
                 @JsonUnwrapped JobCounts counts) {
    }
}
