package dev.steadfast.errorgroups;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.Timestamps;
import dev.steadfast.store.JobSummary;
import dev.steadfast.store.errorgroups.ErrorGroupRow;
import java.util.List;

/** The admin API's error-group answers (GET /ojs/v1/admin/error-groups and /{id}). */
final class ErrorGroupAnswers {

    private ErrorGroupAnswers() {
    }

    /**
     * One group. {@code failures}: failed attempts counted since it first appeared; {@code hourly}: failed attempts
     * per UTC hour, oldest first, the first hour starting at {@code hourly_from}, the last the current one.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Group(String id, String errorType, String message, long failures, String firstSeen, String lastSeen,
                 List<String> queues, List<String> types, String hourlyFrom, List<Long> hourly) {

        static Group of(ErrorGroupService.Group g) {
            ErrorGroupRow r = g.row();
            return new Group(g.id(), r.errorType(), r.message(), r.failures(), Timestamps.format(r.firstSeen()),
                    Timestamps.format(r.lastSeen()), r.queues(), r.types(), Timestamps.format(g.from()), g.hourly());
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Groups(List<Group> groups, @JsonInclude(JsonInclude.Include.ALWAYS) String nextCursor) {
    }

    /** How many of the group's jobs are in each state, and how many each action would touch. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Counts(long jobs, long retryable, long deadLetters, long discarded, long other, Actions actions) {

        static Counts of(ErrorGroupService.Counts c) {
            return new Counts(c.jobs(), c.retryable(), c.deadLetters(), c.discarded(), c.other(),
                    new Actions(c.retry(), c.discard(), c.delete()));
        }
    }

    record Actions(long retry, long discard, long delete) {
    }

    /** A job of the group: its envelope's small fields and its current error. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Job(String id, String type, String queue, String state, boolean deadLetter, int attempt, int maxAttempts,
               String createdAt, String errorType, String errorMessage) {

        static Job of(JobSummary j) {
            return new Job(j.id().toString(), j.type(), j.queue(), j.state().wire(), j.deadLetter(), j.attempt(),
                    j.maxAttempts(), Timestamps.format(j.createdAt()), j.errorType(), j.errorMessage());
        }
    }

    /** One group, its counts and a page of its jobs (newest id first); {@code next_cursor} is null on the last page. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Detail(Group group, Counts counts, List<Job> jobs, @JsonInclude(JsonInclude.Include.ALWAYS) String nextCursor) {

        static Detail of(ErrorGroupService.Detail d) {
            return new Detail(Group.of(d.group()), Counts.of(d.counts()), d.jobs().stream().map(Job::of).toList(),
                    d.next());
        }
    }
}
