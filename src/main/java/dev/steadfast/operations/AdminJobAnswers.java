package dev.steadfast.operations;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.stats.JobCounts;

/** The admin API's job answers beside the job envelope (ojs-admin-api.md 7). */
final class AdminJobAnswers {

    private AdminJobAnswers() {
    }

    /** A bulk action over the jobs a filter matched. */
    record Bulk(String action, long matched, long succeeded, long failed) {
    }

    /** Jobs by state in one queue (null: all), and the dead letters among the discarded ones. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Count(String queue, JobCounts counts, long deadLetter) {
    }

    /** How many completed jobs were deleted, and the cutoff. */
    record DeletedCompleted(long deleted, String before) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Deleted(boolean deleted, String jobId, String previousState) {
    }
}
