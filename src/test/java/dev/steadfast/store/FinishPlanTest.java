package dev.steadfast.store;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.model.Completion;
import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An ACK, and a heartbeat naming its jobs, finds its jobs by id whatever the number of jobs in flight: COMPLETE and
 * WorkerStore.EXTEND_LEASES_OF, executed often enough on one connection for PostgreSQL to switch to its cached generic
 * plan, read no entry of the reaper's index, jobs_lease_check_idx. Before V36 that index was on lease_expires_at, and a
 * guard written out as {@code state = 'active'} let the plan read every active job's lease entry (under a held vacuum
 * horizon every one since; JobSql.COMPLETE says why); this test showed it. The check-time index has no column the
 * guards compare, so that plan no longer arises; the bound guard stays, and this test watches that it does not
 * come back. It also holds that an ACK that refused nothing does not open the history (JobSql.COMPLETE).
 */
@QuarkusTest
class FinishPlanTest {

    @Inject
    Pool pool;

    @Inject
    JobStore jobs;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void completeProbesThePrimaryKeyNotTheLeaseIndex() {
        List<Object> batch = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            batch.add(obj("type", "plan.test", "queue", "plan-q", "args", arr(i)));
        }
        assertEquals(201, Api.send(obj("jobs", batch)).post(Api.JOBS + "/batch").statusCode());
        List<String> active = fetchIds("w", 60, "plan-q");
        assertEquals(60, active.size());
        List<Object> waiting = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            waiting.add(obj("type", "plan.test", "queue", "plan-waiting", "args", arr(i)));
        }
        for (int i = 0; i < 3; i++) { // a backlog beside the jobs in flight, as while workers keep up with a queue
            assertEquals(201, Api.send(obj("jobs", waiting)).post(Api.JOBS + "/batch").statusCode());
        }
        pool.query("ANALYZE jobs").execute().await().indefinitely();
        SqlConnection c = pool.getConnection().await().indefinitely();
        try {
            for (int i = 0; i < 8; i++) { // past the five custom plans after which the generic one may be cached
                c.query("BEGIN").execute().await().indefinitely();
                long lease = read(c, "jobs_lease_check_idx");
                long history = historyScans(c);
                List<Completion.Result> done = JobStore.complete(c,
                        List.of(new Completion(UUID.fromString(active.get(i)), null, "w")), Instant.now())
                        .await().indefinitely();
                assertEquals(1, done.size());
                assertTrue(done.get(0) instanceof Completion.Done, () -> "refused: " + done);
                assertEquals(0, read(c, "jobs_lease_check_idx") - lease, "execution " + (i + 1) + " read the lease index");
                // what explains a refusal is read only for the refused: an ACK that completes looks up no history
                assertEquals(0, historyScans(c) - history, "execution " + (i + 1) + " scanned the history");
                // nor does it open the history to read it: the read that explains a refusal (job_facts, V37) is not
                // part of the plan, whose every relation PostgreSQL locks on each execution
                assertEquals(List.of(), historyReadLocks(c), "execution " + (i + 1) + " opened the history to read it");
                c.query("ROLLBACK").execute().await().indefinitely();
            }
            // a heartbeat naming its job: one probe by id too
            String[] heartbeat = dev.steadfast.domain.JobStateMachine.sourceNames(
                    dev.steadfast.domain.JobStateMachine.Operation.HEARTBEAT);
            for (int i = 0; i < 8; i++) {
                c.query("BEGIN").execute().await().indefinitely();
                long lease = read(c, "jobs_lease_check_idx");
                int extended = c.preparedQuery(dev.steadfast.store.workers.WorkerStore.EXTEND_LEASES_OF)
                        .execute(Tuple.tuple(java.util.Arrays.asList(new UUID[] {UUID.fromString(active.get(i))}, "w",
                                JobStore.odt(Instant.now()), null, heartbeat)))
                        .await().indefinitely().rowCount();
                assertEquals(1, extended);
                assertEquals(0, read(c, "jobs_lease_check_idx") - lease, "heartbeat " + (i + 1) + " read the lease index");
                c.query("ROLLBACK").execute().await().indefinitely();
            }
        } finally {
            c.close().await().indefinitely();
        }
    }

    /** Scans of the history partitions' indexes by this session not reported yet (this transaction's among them). */
    private static long historyScans(SqlConnection c) {
        return c.query("""
                SELECT coalesce(sum(pg_stat_get_xact_numscans(i.indexrelid)), 0)::int8
                FROM pg_inherits h JOIN pg_index i ON i.indrelid = h.inhrelid
                WHERE h.inhparent = 'job_history'::regclass""").execute()
                .await().indefinitely().iterator().next().getLong(0);
    }

    /**
     * The history's tables and indexes this transaction holds a read lock on (a COMPLETE writes one day partition,
     * under RowExclusiveLock; a plan that could read the history locks every partition and index for reading).
     */
    private static List<String> historyReadLocks(SqlConnection c) {
        List<String> out = new ArrayList<>();
        c.query("""
                SELECT l.relation::regclass::text FROM pg_locks l
                WHERE l.pid = pg_backend_pid() AND l.locktype = 'relation' AND l.mode = 'AccessShareLock'
                  AND l.relation::regclass::text LIKE 'job\\_history%'
                ORDER BY 1""").execute().await().indefinitely().forEach(r -> out.add(r.getString(0)));
        return out;
    }

    /** Entries of the index read by this session and not reported yet (this transaction's among them). */
    private static long read(SqlConnection c, String index) {
        return c.query("SELECT pg_stat_get_xact_tuples_returned('" + index + "'::regclass)").execute()
                .await().indefinitely().iterator().next().getLong(0);
    }
}
