package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.store.deadletters.DeadLetterFilter;
import dev.steadfast.store.deadletters.DeadLetterStore;
import dev.steadfast.store.maintenance.MaintenanceSql;
import dev.steadfast.store.workers.WorkerStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every state guard written out in a store statement agrees with {@link JobStateMachine}'s transition table: the
 * states in its WHERE clause are exactly the operation's sources, and the states it sets are among the
 * operation's targets. Statements whose guard is {@code state = ANY($n)} take it from
 * {@link JobStateMachine#sourceNames} at the call site, so they cannot drift; they are listed to show it.
 *
 * RECORD_FAILURES writes the state AttemptOutcomes decided (a bound parameter); the states it can decide are checked
 * against FAIL's and EXPIRE_LEASE's targets here.
 */
class StateGuardsTest {

    private static void assertGuard(Operation op, String name, String sql) {
        assertEquals(JobStateMachine.sources(op), StateGuards.guard(sql), name + " guards on the sources of " + op);
    }

    private static void assertWrites(Operation op, String name, String sql) {
        Set<JobState> written = StateGuards.sets(sql);
        assertTrue(!written.isEmpty() && JobStateMachine.targets(op).containsAll(written),
                name + " writes " + written + ", " + op + " may lead to " + JobStateMachine.targets(op));
    }

    @Test
    void writtenOutGuardsMatchTheTransitionTable() {
        assertGuard(Operation.PROMOTE, "MaintenanceSql.PROMOTE_DUE", MaintenanceSql.PROMOTE_DUE);
        assertWrites(Operation.PROMOTE, "MaintenanceSql.PROMOTE_DUE", MaintenanceSql.PROMOTE_DUE);

        assertGuard(Operation.EXPIRE_LEASE, "MaintenanceSql.LOCK_EXPIRED_LEASES", MaintenanceSql.LOCK_EXPIRED_LEASES);

        assertGuard(Operation.HEARTBEAT, "WorkerStore.EXTEND_LEASES", WorkerStore.EXTEND_LEASES);
        assertTrue(WorkerStore.EXTEND_LEASES_OF.contains("state = ANY($5::text[] COLLATE \"C\")"),
                "EXTEND_LEASES_OF binds HEARTBEAT's sources");
        assertEquals(Set.of(), StateGuards.sets(WorkerStore.EXTEND_LEASES_OF), "a heartbeat leaves the state as it is");
        assertEquals(Set.of(), StateGuards.sets(WorkerStore.EXTEND_LEASES), "a heartbeat leaves the state as it is");

        assertGuard(Operation.ACTIVATE, "JobSql.ACTIVATE", JobSql.ACTIVATE);
        assertWrites(Operation.ACTIVATE, "JobSql.ACTIVATE", JobSql.ACTIVATE);

        assertGuard(Operation.SNOOZE, "JobSql.SNOOZE", JobSql.SNOOZE);
        assertWrites(Operation.SNOOZE, "JobSql.SNOOZE", JobSql.SNOOZE);

        // the plain claims discard the expired jobs they pass over first: everyClaimAndFinishGuardsLikeTheTable
        assertGuard(Operation.EXPIRE, "JobSql.claimQueues", JobSql.claimQueues(10));
        assertGuard(Operation.EXPIRE, "JobSql.claimOne", JobSql.claimOne(10));
        assertGuard(Operation.EXPIRE, "JobSql.claimFrom", JobSql.claimFrom(10));

        assertGuard(Operation.EXPIRE, "MaintenanceSql.LOCK_EXPIRED_JOBS", MaintenanceSql.LOCK_EXPIRED_JOBS);
        assertGuard(Operation.EXPIRE, "MaintenanceSql.LOCK_EXPIRED_JOB", MaintenanceSql.LOCK_EXPIRED_JOB);
        assertGuard(Operation.EXPIRE, "MaintenanceSql.DISCARD_EXPIRED", MaintenanceSql.DISCARD_EXPIRED);
        assertWrites(Operation.EXPIRE, "MaintenanceSql.DISCARD_EXPIRED", MaintenanceSql.DISCARD_EXPIRED);
        assertEquals(java.util.Set.copyOf(dev.steadfast.domain.JobExpiry.expiresFrom()),
                JobStateMachine.sources(Operation.EXPIRE), "the expiry's rule and the table agree");
        assertGuard(Operation.FETCH, "JobSql.CLAIM_LIMITED", JobSql.CLAIM_LIMITED);
        assertWrites(Operation.FETCH, "JobSql.CLAIM_LIMITED", JobSql.CLAIM_LIMITED);
        assertGuard(Operation.FETCH, "JobSql.CLAIM_KEYED", JobSql.CLAIM_KEYED);
        assertWrites(Operation.FETCH, "JobSql.CLAIM_KEYED", JobSql.CLAIM_KEYED);
        assertGuard(Operation.FETCH, "JobSql.CLAIM_KEYED_LIMITED", JobSql.CLAIM_KEYED_LIMITED);
        assertWrites(Operation.FETCH, "JobSql.CLAIM_KEYED_LIMITED", JobSql.CLAIM_KEYED_LIMITED);

        assertWrites(Operation.ACK, "JobSql.COMPLETE", JobSql.COMPLETE);

        assertEquals(JobStateMachine.sources(Operation.FAIL), JobStateMachine.sources(Operation.EXPIRE_LEASE),
                "the lease reaper writes through RECORD_FAILURES too");
        // AttemptOutcomes decides retryable, available (a crashed worker's backoff already passed) or discarded.
        Set<JobState> decided = EnumSet.of(JobState.RETRYABLE, JobState.AVAILABLE, JobState.DISCARDED);
        assertTrue(JobStateMachine.targets(Operation.EXPIRE_LEASE).containsAll(decided),
                "EXPIRE_LEASE may lead to " + JobStateMachine.targets(Operation.EXPIRE_LEASE));
        assertTrue(JobStateMachine.targets(Operation.FAIL).containsAll(
                EnumSet.of(JobState.RETRYABLE, JobState.DISCARDED)), "FAIL leads to retryable or discarded");
    }

    @Test
    void guardsBoundFromTheTableAtTheCallSite() {
        String[][] statements = {
            {"JobSql.CANCEL", JobSql.CANCEL, "CANCEL"},
            {"JobSql.CANCEL_REPLACED", JobSql.CANCEL_REPLACED, "CANCEL"},
            {"JobBulkStore.CANCEL_BATCH", JobBulkStore.CANCEL_BATCH, "CANCEL"},
            {"JobBulkStore.RETRY_NOW_BATCH", JobBulkStore.RETRY_NOW_BATCH, "RETRY_NOW"},
            {"JobSql.COMPLETE", JobSql.COMPLETE, "ACK"},
            {"JobSql.COMPLETE_STEP", JobSql.COMPLETE_STEP, "ACK"},
        };
        for (String[] s : statements) {
            assertTrue(s[1].contains("state = ANY($") || s[1].contains("state = ANY((SELECT $"),
                    s[0] + " takes its guard from JobStateMachine.sourceNames");
            assertWrites(Operation.valueOf(s[2]), s[0], s[1]);
        }
    }

    @Test
    void deadLetterRetriesGuardOnTheFlagThatOnlyADiscardedJobCarries() throws IOException {
        // dead_letter implies state = 'discarded' by a CHECK constraint (copied into job_history by V18's LIKE ...
        // INCLUDING CONSTRAINTS), and discarded is RETRY_DEAD_LETTER's source.
        assertEquals(Set.of(JobState.DISCARDED), JobStateMachine.sources(Operation.RETRY_DEAD_LETTER));
        String v1 = Files.readString(Path.of("src/main/resources/db/migration/V1__jobs.sql"));
        assertTrue(v1.contains("CHECK (NOT dead_letter OR state = 'discarded')"));
        assertTrue(DeadLetterStore.where(DeadLetterFilter.ALL).hql().startsWith("deadLetter = true"));
    }

    /**
     * The new run (dead-letter retries and revivals: one statement for both) writes a target of both operations,
     * guarded by the sources the call site passes; RETRY_NOW's entity method writes a target of RETRY_NOW.
     */
    @Test
    void newRunsAndRetryNowWriteTheTargetsOfTheirOperations() {
        assertTrue(HistorySql.START_NEW_RUNS.contains("h.state = ANY($2"));
        for (Operation op : new Operation[] {Operation.RETRY_DEAD_LETTER, Operation.REVIVE}) {
            assertWrites(op, "HistorySql.START_NEW_RUNS", HistorySql.START_NEW_RUNS);
        }
        JobEntity e = new JobEntity();
        e.state = "retryable";
        e.makeAvailable(java.time.Instant.EPOCH);
        assertTrue(JobStateMachine.targets(Operation.RETRY_NOW).contains(e.jobState()));
    }

    @Test
    void theParserReadsEachFormOfGuard() {
        assertEquals(EnumSet.of(JobState.ACTIVE), StateGuards.guard("UPDATE jobs SET x = 1 WHERE id = $1 AND state = 'active'"));
        assertEquals(EnumSet.of(JobState.SCHEDULED, JobState.RETRYABLE),
                StateGuards.guard("SELECT id FROM jobs WHERE state IN ('scheduled', 'retryable') AND run_at <= $1"));
        assertEquals(EnumSet.of(JobState.AVAILABLE, JobState.SCHEDULED),
                StateGuards.sets("UPDATE jobs SET state = CASE WHEN a THEN 'available' ELSE 'scheduled' END WHERE state = 'active'"));
        assertEquals(List.of(EnumSet.of(JobState.ACTIVE), EnumSet.of(JobState.AVAILABLE)), StateGuards.readsOfJobs(
                "WITH a AS (SELECT id FROM jobs WHERE state = 'active'), h AS (SELECT id FROM job_history WHERE"
                        + " state = 'completed') SELECT * FROM jobs WHERE state = 'available' LIMIT 1"));
    }

    /**
     * Every claim statement reads its candidates only among the jobs FETCH may start, each read of the live table
     * on its own (the keyed claim reads it twice), and makes them active; a workflow step's COMPLETE guards like ACK.
     * The tenants' claims: store.tenants.TenantClaimGuardsTest.
     */
    @Test
    void everyClaimAndFinishGuardsLikeTheTable() {
        StateGuards.assertExpiringClaim("JobSql.claimQueues", JobSql.claimQueues(7));
        StateGuards.assertExpiringClaim("JobSql.claimOne", JobSql.claimOne(7));
        StateGuards.assertExpiringClaim("JobSql.claimFrom", JobSql.claimFrom(7));
        assertEquals(2 + 3, StateGuards.readsOfJobs(JobSql.claimFrom(7)).size(),
                "the expired jobs (locked, moved), then above, in and below the band");
        StateGuards.assertClaim("JobSql.CLAIM_LIMITED", JobSql.CLAIM_LIMITED);
        StateGuards.assertClaim("JobSql.CLAIM_KEYED", JobSql.CLAIM_KEYED);
        StateGuards.assertClaim("JobSql.CLAIM_KEYED_LIMITED", JobSql.CLAIM_KEYED_LIMITED);
        assertEquals(2, StateGuards.readsOfJobs(JobSql.CLAIM_KEYED).size(), "plain and keyed candidates");
        // the finishes bind their guard (guardsBoundFromTheTableAtTheCallSite): active, the one source of each
        assertEquals(java.util.List.of("active"), java.util.List.of(JobStateMachine.sourceNames(Operation.ACK)));
        assertEquals(java.util.List.of("active"), java.util.List.of(JobStateMachine.sourceNames(Operation.FAIL)));
        assertTrue(JobSql.RECORD_FAILURES.contains("j.state = ANY($16::text[] COLLATE \"C\")"),
                "RECORD_FAILURES binds FAIL's sources");
    }
}
