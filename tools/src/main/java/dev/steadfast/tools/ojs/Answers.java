package dev.steadfast.tools.ojs;

import java.util.List;

/** The parts of the server's answers the tools read; everything else in them is ignored. */
public final class Answers {

    private Answers() {
    }

    /** A job as answers show it. */
    public record Job(String id, String state, Integer attempt) {
    }

    /** PUSH and INFO: {@code {"job": {...}}}. */
    public record OneJob(Job job) {
    }

    /** FETCH and the batch PUSH: {@code {"jobs": [...], "count": N}} (FETCH repeats the first one as "job"). */
    public record Jobs(List<Job> jobs, Integer count) {

        public List<Job> list() {
            return jobs == null ? List.of() : jobs;
        }
    }

    /** ACK and FAIL: the job's state afterwards. */
    public record Outcome(String jobId, String state) {
    }

    /** The batch ACK extension: one result per item, in request order. */
    public record BatchOutcome(List<Item> results) {

        public record Item(String jobId, Boolean ok, String state) {
        }

        public List<Item> list() {
            return results == null ? List.of() : results;
        }
    }
}
