package dev.steadfast.domain.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.JobState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The workflow rules as a truth table over member states, without a database. */
class WorkflowRulesTest {

    private static final UUID A = id(1), B = id(2), C = id(3), CB_DONE = id(10), CB_OK = id(11), CB_FAIL = id(12);

    private static UUID id(int n) {
        return new UUID(0x0195000000007000L, 0x8000000000000000L + n);
    }

    private static Member step(UUID id, int pos, JobState s) {
        return new Member(id, MemberRole.STEP, pos, s, null);
    }

    private static Member recorded(UUID id, int pos, JobState s, Outcome o) {
        return new Member(id, MemberRole.STEP, pos, s, o);
    }

    private static Advance chain(Member... ms) {
        return WorkflowRules.advance(WorkflowType.CHAIN, WorkflowState.RUNNING, List.of(ms));
    }

    @Test
    void aChainEnqueuesTheNextStepWithTheResultsOfAllBefore() {
        Advance a = chain(recorded(A, 0, JobState.COMPLETED, Outcome.COMPLETED), step(B, 1, JobState.COMPLETED),
                step(C, 2, JobState.PENDING));
        assertEquals(WorkflowState.RUNNING, a.state());
        assertEquals(Map.of(B, Outcome.COMPLETED), a.outcomes());
        assertEquals(List.of(new Advance.Activation(C, List.of(A, B))), a.activate());
        assertEquals(List.of(), a.cancel());
    }

    @Test
    void aChainIsCompletedWhenItsLastStepCompletes() {
        Advance a = chain(recorded(A, 0, JobState.COMPLETED, Outcome.COMPLETED), step(B, 1, JobState.COMPLETED));
        assertEquals(WorkflowState.COMPLETED, a.state());
        assertEquals(List.of(), a.activate());
    }

    @Test
    void aFailedOrCancelledStepFailsTheChainAndCancelsTheWaitingSteps() {
        for (JobState end : List.of(JobState.DISCARDED, JobState.CANCELLED)) {
            Advance a = chain(recorded(A, 0, JobState.COMPLETED, Outcome.COMPLETED), step(B, 1, end),
                    step(C, 2, JobState.PENDING));
            assertEquals(WorkflowState.FAILED, a.state(), end.wire());
            assertEquals(List.of(C), a.cancel());
            assertEquals(Outcome.CANCELLED, a.outcomes().get(C));
            assertEquals(end == JobState.DISCARDED ? Outcome.FAILED : Outcome.CANCELLED, a.outcomes().get(B));
            assertEquals(List.of(), a.activate());
        }
    }

    @Test
    void aStepStillRetryableOrActiveChangesNothing() {
        for (JobState s : List.of(JobState.RETRYABLE, JobState.ACTIVE, JobState.AVAILABLE, JobState.SCHEDULED)) {
            Advance a = chain(step(A, 0, s), step(B, 1, JobState.PENDING));
            assertTrue(a.changesNothing(WorkflowState.RUNNING), s.wire());
        }
    }

    @Test
    void decidingAgainOnTheResultChangesNothing() {
        // After the first decision is applied: B's outcome recorded, C available.
        Advance a = chain(recorded(A, 0, JobState.COMPLETED, Outcome.COMPLETED),
                recorded(B, 1, JobState.COMPLETED, Outcome.COMPLETED), step(C, 2, JobState.AVAILABLE));
        assertTrue(a.changesNothing(WorkflowState.RUNNING));
    }

    @Test
    void aGroupFinishesWhenEveryJobHasFinished() {
        var running = WorkflowRules.advance(WorkflowType.GROUP, WorkflowState.RUNNING, List.of(
                step(A, 0, JobState.COMPLETED), step(B, 1, JobState.DISCARDED), step(C, 2, JobState.ACTIVE)));
        assertEquals(WorkflowState.RUNNING, running.state());
        assertEquals(Map.of(A, Outcome.COMPLETED, B, Outcome.FAILED), running.outcomes());
        var failed = WorkflowRules.advance(WorkflowType.GROUP, WorkflowState.RUNNING, List.of(
                step(A, 0, JobState.COMPLETED), step(B, 1, JobState.DISCARDED), step(C, 2, JobState.COMPLETED)));
        assertEquals(WorkflowState.FAILED, failed.state());
        var completed = WorkflowRules.advance(WorkflowType.GROUP, WorkflowState.RUNNING, List.of(
                step(A, 0, JobState.COMPLETED), step(B, 1, JobState.COMPLETED)));
        assertEquals(WorkflowState.COMPLETED, completed.state());
    }

    private static List<Member> batch(JobState a, JobState b, JobState done, JobState ok, JobState fail) {
        List<Member> ms = new ArrayList<>(List.of(step(A, 0, a), step(B, 1, b)));
        ms.add(new Member(CB_DONE, MemberRole.ON_COMPLETE, 0, done, null));
        ms.add(new Member(CB_OK, MemberRole.ON_SUCCESS, 0, ok, null));
        ms.add(new Member(CB_FAIL, MemberRole.ON_FAILURE, 0, fail, null));
        return ms;
    }

    @Test
    void aBatchFiresOnCompleteAndOnSuccessOrOnFailureOnceAllJobsFinished() {
        Advance success = WorkflowRules.advance(WorkflowType.BATCH, WorkflowState.RUNNING,
                batch(JobState.COMPLETED, JobState.COMPLETED, JobState.PENDING, JobState.PENDING, JobState.PENDING));
        assertEquals(List.of(new Advance.Activation(CB_DONE, List.of(A, B)), new Advance.Activation(CB_OK, List.of(A, B))),
                success.activate());
        assertEquals(List.of(CB_FAIL), success.cancel());
        assertEquals(WorkflowState.RUNNING, success.state(), "running while its callbacks run");

        Advance failure = WorkflowRules.advance(WorkflowType.BATCH, WorkflowState.RUNNING,
                batch(JobState.COMPLETED, JobState.DISCARDED, JobState.PENDING, JobState.PENDING, JobState.PENDING));
        assertEquals(List.of(new Advance.Activation(CB_DONE, List.of(A, B)),
                new Advance.Activation(CB_FAIL, List.of(A, B))), failure.activate());
        assertEquals(List.of(CB_OK), failure.cancel());

        Advance waiting = WorkflowRules.advance(WorkflowType.BATCH, WorkflowState.RUNNING,
                batch(JobState.COMPLETED, JobState.RETRYABLE, JobState.PENDING, JobState.PENDING, JobState.PENDING));
        assertEquals(List.of(), waiting.activate());
        assertEquals(List.of(), waiting.cancel());
    }

    @Test
    void aBatchEndsWithItsCallbacks() {
        List<Member> ms = new ArrayList<>(List.of(recorded(A, 0, JobState.COMPLETED, Outcome.COMPLETED),
                new Member(CB_DONE, MemberRole.ON_COMPLETE, 0, JobState.COMPLETED, null),
                new Member(CB_OK, MemberRole.ON_SUCCESS, 0, JobState.DISCARDED, null)));
        assertEquals(WorkflowState.FAILED,
                WorkflowRules.advance(WorkflowType.BATCH, WorkflowState.RUNNING, ms).state());
        ms.set(2, new Member(CB_OK, MemberRole.ON_SUCCESS, 0, JobState.COMPLETED, null));
        assertEquals(WorkflowState.COMPLETED,
                WorkflowRules.advance(WorkflowType.BATCH, WorkflowState.RUNNING, ms).state());
    }

    @Test
    void aTerminalWorkflowOnlyRecordsOutcomes() {
        Advance a = WorkflowRules.advance(WorkflowType.CHAIN, WorkflowState.CANCELLED,
                List.of(step(A, 0, JobState.COMPLETED), step(B, 1, JobState.PENDING)));
        assertEquals(WorkflowState.CANCELLED, a.state());
        assertEquals(Map.of(A, Outcome.COMPLETED), a.outcomes());
        assertEquals(List.of(), a.activate());
        assertEquals(List.of(), a.cancel());
    }

    @Test
    void aStartingWorkflowEnqueuesAChainsFirstStepOrEveryJobButNoCallback() {
        Member cb = new Member(CB_DONE, MemberRole.ON_COMPLETE, 0, JobState.PENDING, null);
        List<Member> ms = List.of(step(B, 1, JobState.PENDING), step(A, 0, JobState.PENDING), cb);
        assertEquals(List.of(A), WorkflowRules.initial(WorkflowType.CHAIN, ms));
        assertEquals(List.of(A, B), WorkflowRules.initial(WorkflowType.GROUP, ms));
        assertEquals(List.of(A, B), WorkflowRules.initial(WorkflowType.BATCH, ms));
        assertEquals(List.of(B), WorkflowRules.initial(WorkflowType.GROUP,
                List.of(step(A, 0, JobState.CANCELLED), step(B, 1, JobState.PENDING))), "only what still waits");
    }

    @Test
    void aNestedWorkflowCountsAsTheJobStateItStandsFor() {
        assertEquals(JobState.PENDING, WorkflowState.PENDING.asMemberState());
        assertEquals(JobState.ACTIVE, WorkflowState.RUNNING.asMemberState());
        assertEquals(JobState.COMPLETED, WorkflowState.COMPLETED.asMemberState());
        assertEquals(JobState.DISCARDED, WorkflowState.FAILED.asMemberState());
        assertEquals(JobState.CANCELLED, WorkflowState.CANCELLED.asMemberState());
        Advance failed = chain(step(A, 0, WorkflowState.FAILED.asMemberState()), step(B, 1, JobState.PENDING));
        assertEquals(WorkflowState.FAILED, failed.state());
        assertEquals(List.of(B), failed.cancel());
    }
}
