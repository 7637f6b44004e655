package dev.steadfast.store.errorgroups;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import org.junit.jupiter.api.Test;

/**
 * The group actions' statements take their guard from the transition table (bound at the call site from
 * JobStateMachine.sourceNames, repeated in the outer statement) and write a target of their operation. Without a
 * server.
 */
class ErrorGroupGuardsTest {

    @Test
    void retryNowAndDiscardAreGuardedByTheirSourcesAndWriteTheirTargets() {
        assertTrue(ErrorGroupSql.RETRY_NOW_BATCH.contains("AND state = ANY($2)"));
        assertTrue(ErrorGroupSql.RETRY_NOW_BATCH.contains("SET state = 'available'"));
        assertTrue(JobStateMachine.targets(Operation.RETRY_NOW).contains(JobState.AVAILABLE));

        assertTrue(ErrorGroupSql.DISCARD_BATCH.contains("AND j.state = ANY($2)"));
        assertTrue(ErrorGroupSql.DISCARD_BATCH.contains("'discarded' AS state"));
        assertTrue(JobStateMachine.targets(Operation.DISCARD).contains(JobState.DISCARDED));
    }

    @Test
    void newRunsStartOnlyFromDiscardedJobsWhichEveryRetryOperationLeaves() {
        assertTrue(ErrorGroupSql.DISCARDED_BATCH.contains("state = 'discarded'"));
        assertTrue(JobStateMachine.sources(Operation.RETRY_DEAD_LETTER).contains(JobState.DISCARDED));
        assertTrue(JobStateMachine.sources(Operation.REVIVE).contains(JobState.DISCARDED));
    }
}
