package dev.steadfast.deadletters;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.Pagination;
import dev.steadfast.jobs.JobView;
import java.util.List;
import java.util.Map;

/** The dead-letter answers (ojs-dead-letter.md) of the data plane and the admin API. */
final class DeadLetterAnswers {

    private DeadLetterAnswers() {
    }

    /** A page of dead letters; {@code next_cursor} only while there are more. */
    record Page(List<JobView> jobs, CursorPagination pagination) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CursorPagination(long total, int limit, int offset, boolean hasMore,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String nextCursor) {
    }

    /** The admin API's page of dead letters. */
    record AdminPage(List<JobView> items, Pagination pagination) {
    }

    /** Counts, the oldest and newest (null when there are none) and the retention ({@code max_count} is null). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Stats(long total, Map<String, Long> byQueue, Map<String, Long> byErrorType, String oldestAt,
                 String newestAt, Retention retention) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Retention(String maxAge, Integer maxCount) {
    }

    /** A bulk retry or delete: what matched and what was done. */
    record Bulk(String action, long matched, long succeeded, long failed) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Deleted(boolean deleted, String jobId) {
    }
}
