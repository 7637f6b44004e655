package dev.steadfast.queues;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.Pagination;
import dev.steadfast.stats.JobCounts;
import java.util.List;

/** The admin API's queue answers (ojs-admin-api.md 6.1 to 6.4) and the queue limits (ojs-rate-limiting.md 7.2). */
final class AdminQueueViews {

    private AdminQueueViews() {
    }

    record QueueList(List<Queue> items, Pagination pagination) {
    }

    /** One queue with its counts; timestamps it does not have are written as null. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Queue(String name, String state, JobCounts counts, boolean paused, String pausedAt,
                 String oldestAvailableAt, String createdAt) {
    }

    /** Pause ({@code paused_at}) and resume ({@code resumed_at}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Changed(String name, boolean paused, String pausedAt, String resumedAt) {
    }

    /** A queue's limits; {@code concurrency} and {@code rate} are null when not set. */
    record Limits(String queue, Integer concurrency, Rate rate) {
    }

    record Rate(int limit, String period, String window) {
    }

    /** A queue's backpressure bound; {@code backpressure} is null when the queue is unbounded. */
    record Config(String queue, Backpressure backpressure) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Backpressure(int maxDepth, String strategy, double warningThreshold) {
    }
}
