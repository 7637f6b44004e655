package dev.steadfast.domain.workflow;

import dev.steadfast.domain.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What a workflow reports about the jobs of its whole tree (itself and every workflow nested in it), computed
 * without I/O: the metadata counters and start of ojs-workflows.md 3.3 and the failures of 9.6.
 *
 * <ul>
 *   <li>{@code jobCount}, {@code completedCount}, {@code failedCount}: the jobs of the tree that are steps (a
 *       chain's steps, a group's or batch's jobs, at every level); a batch's callbacks are not counted, so
 *       {@code completedCount + failedCount == jobCount} once every job has finished (the rationale of 3.3);
 *       {@code failedCount} counts jobs failed for good (9.1: a retryable job has not failed).</li>
 *   <li>{@code startedAt}: when the first job of the tree began executing: the earliest start recorded on the
 *       tree's workflows, or of a job still holding its start, whichever is earlier; null before any started.</li>
 *   <li>{@code failures}: every job of the tree that failed for good, callbacks included (9.5), in tree order.</li>
 * </ul>
 *
 * @param jobCount       the tree's step jobs
 * @param completedCount those that completed
 * @param failedCount    those that failed for good
 * @param startedAt      when the first job began executing, or null
 * @param failures       the failed jobs, with their errors
 */
public record WorkflowReport(int jobCount, int completedCount, int failedCount, Instant startedAt,
                             List<Failure> failures) {

    /** The error code reported for a failed job whose error names none. */
    public static final String DEFAULT_CODE = "handler_error";

    /**
     * A job of the tree as stored: its member row ({@code outcome} null until its workflow accounted for it) and,
     * while the job still exists, its state, attempt, start and last error ({@code errorJson} the whole object,
     * {@code errorCode} and {@code errorMessage} read from it); {@code workflowId} is its innermost workflow.
     */
    public record TreeJob(UUID jobId, UUID workflowId, MemberRole role, int position, Outcome outcome,
                          JobState state, Integer attempt, Instant startedAt, String errorCode, String errorMessage,
                          String errorJson) {

        /** The member's outcome: recorded, or the one its job's state already means; null while it may run. */
        public Outcome effectiveOutcome() {
            return outcome != null ? outcome : state == null ? null : Outcome.of(state).orElse(null);
        }
    }

    /**
     * A failed job as ojs-workflows.md 9.6 reports it: {@code jobId}, {@code code}, {@code message},
     * {@code attempt} (the attempt of the final failure; null when the job is gone), and where it sits: its
     * innermost workflow, role and position, and the whole error object as stored.
     */
    public record Failure(UUID jobId, UUID workflowId, MemberRole role, int position, String code, String message,
                          Integer attempt, String errorJson) {
    }

    /** The report of a tree whose workflows recorded {@code recordedStart} (null: none) and whose jobs are these. */
    public static WorkflowReport of(Instant recordedStart, List<TreeJob> jobs) {
        int count = 0;
        int completed = 0;
        int failed = 0;
        Instant started = recordedStart;
        List<Failure> failures = new ArrayList<>();
        for (TreeJob j : jobs) {
            Outcome o = j.effectiveOutcome();
            if (j.role() == MemberRole.STEP) {
                count++;
                completed += o == Outcome.COMPLETED ? 1 : 0;
                failed += o == Outcome.FAILED ? 1 : 0;
            }
            if (j.startedAt() != null && (started == null || j.startedAt().isBefore(started))) {
                started = j.startedAt();
            }
            if (o == Outcome.FAILED) {
                failures.add(new Failure(j.jobId(), j.workflowId(), j.role(), j.position(),
                        j.errorCode() != null ? j.errorCode() : DEFAULT_CODE,
                        j.errorMessage() != null ? j.errorMessage() : "", j.attempt(), j.errorJson()));
            }
        }
        return new WorkflowReport(count, completed, failed, started, List.copyOf(failures));
    }

    /**
     * The index of the step that failed a chain (ojs-workflows.md 9.2 and 9.6): the first step that failed for
     * good or, when the chain failed otherwise, the first step cancelled (a step cancelled on its own fails the
     * chain); null when no step failed the chain. {@code steps} are the chain's own members in order, a nested
     * workflow standing as one member with its own outcome.
     */
    public static Integer failedStepIndex(WorkflowState state, List<Outcome> steps) {
        int cancelled = -1;
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i) == Outcome.FAILED) {
                return i;
            }
            if (steps.get(i) == Outcome.CANCELLED && cancelled < 0) {
                cancelled = i;
            }
        }
        return state == WorkflowState.FAILED && cancelled >= 0 ? cancelled : null;
    }
}
