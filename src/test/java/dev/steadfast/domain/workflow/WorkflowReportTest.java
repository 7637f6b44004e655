package dev.steadfast.domain.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.steadfast.domain.JobState;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The metadata counters, start and error report of a workflow tree, from hand-made member rows. */
class WorkflowReportTest {

    static final Instant T = Instant.parse("2026-03-01T10:00:00Z");
    static final UUID OUTER = UUID.fromString("0195aaaa-0000-7000-8000-000000000001");
    static final UUID INNER = UUID.fromString("0195aaaa-0000-7000-8000-000000000002");

    static WorkflowReport.TreeJob job(int n, UUID wf, MemberRole role, Outcome outcome, JobState state,
                                      Instant started, String code, String message) {
        return new WorkflowReport.TreeJob(UUID.fromString("0195bbbb-0000-7000-8000-00000000000" + n), wf, role, n,
                outcome, state, state == null ? null : 2, started, code, message,
                code == null && message == null ? null : "{\"message\": \"" + message + "\"}");
    }

    @Test
    void countsEveryStepJobOfTheTreeButNotCallbacks() {
        WorkflowReport r = WorkflowReport.of(null, List.of(
                job(1, OUTER, MemberRole.STEP, Outcome.COMPLETED, JobState.COMPLETED, T, null, null),
                job(2, INNER, MemberRole.STEP, null, JobState.COMPLETED, T.plusSeconds(1), null, null),
                job(3, INNER, MemberRole.STEP, null, JobState.DISCARDED, T.plusSeconds(2), "timeout", "slow"),
                job(4, INNER, MemberRole.STEP, null, JobState.RETRYABLE, T.plusSeconds(3), "handler_error", "again"),
                job(5, OUTER, MemberRole.STEP, Outcome.CANCELLED, JobState.CANCELLED, null, null, null),
                job(6, OUTER, MemberRole.ON_COMPLETE, null, JobState.COMPLETED, T.plusSeconds(9), null, null)));
        assertEquals(5, r.jobCount(), "callbacks are not counted");
        assertEquals(2, r.completedCount(), "a recorded outcome or a finished job's state");
        assertEquals(1, r.failedCount(), "a retryable job has not failed (9.1); a cancelled one is neither");
        assertEquals(T, r.startedAt());
        assertEquals(1, r.failures().size());
        WorkflowReport.Failure f = r.failures().get(0);
        assertEquals(INNER, f.workflowId());
        assertEquals("timeout", f.code());
        assertEquals("slow", f.message());
        assertEquals(2, f.attempt());
        assertEquals(3, f.position());
    }

    @Test
    void aFailedCallbackIsReportedAndAnErrorWithoutCodeGetsTheDefault() {
        WorkflowReport r = WorkflowReport.of(null, List.of(
                job(1, OUTER, MemberRole.STEP, Outcome.COMPLETED, JobState.COMPLETED, T, null, null),
                job(2, OUTER, MemberRole.ON_FAILURE, Outcome.FAILED, JobState.DISCARDED, T, null, "cb broke")));
        assertEquals(0, r.failedCount());
        assertEquals(MemberRole.ON_FAILURE, r.failures().get(0).role());
        assertEquals(WorkflowReport.DEFAULT_CODE, r.failures().get(0).code());
        WorkflowReport gone = WorkflowReport.of(null, List.of(
                job(1, OUTER, MemberRole.STEP, Outcome.FAILED, null, null, null, null)));
        assertEquals(1, gone.failedCount(), "a recorded outcome outlives its pruned job");
        assertNull(gone.failures().get(0).attempt());
        assertEquals("", gone.failures().get(0).message());
    }

    @Test
    void theStartIsTheEarliestRecordedOrStillHeld() {
        List<WorkflowReport.TreeJob> jobs = List.of(
                job(1, OUTER, MemberRole.STEP, null, JobState.ACTIVE, T.plusSeconds(30), null, null),
                job(2, OUTER, MemberRole.STEP, null, JobState.AVAILABLE, null, null, null));
        assertEquals(T.plusSeconds(30), WorkflowReport.of(null, jobs).startedAt());
        assertEquals(T, WorkflowReport.of(T, jobs).startedAt(), "a retried job's first attempt, recorded earlier");
        assertNull(WorkflowReport.of(null, List.of(jobs.get(1))).startedAt(), "nothing started yet");
    }

    @Test
    void theFailedStepOfAChain() {
        assertEquals(1, WorkflowReport.failedStepIndex(WorkflowState.FAILED,
                Arrays.asList(Outcome.COMPLETED, Outcome.FAILED, Outcome.CANCELLED)));
        assertEquals(0, WorkflowReport.failedStepIndex(WorkflowState.FAILED,
                Arrays.asList(Outcome.CANCELLED, Outcome.CANCELLED)), "a step cancelled on its own failed the chain");
        assertNull(WorkflowReport.failedStepIndex(WorkflowState.CANCELLED,
                Arrays.asList(Outcome.COMPLETED, Outcome.CANCELLED)), "a cancelled chain has no failed step");
        assertNull(WorkflowReport.failedStepIndex(WorkflowState.RUNNING, Arrays.asList(Outcome.COMPLETED, null)));
    }
}
