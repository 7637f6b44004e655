package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.maintenance.TableStatistics;
import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A burst of jobs into an empty table: the claim's plan cached on a connection while the table was empty reads the
 * whole table on every FETCH (a sequential scan and a sort) until the table is analyzed again, and the
 * maintenance task {@link TableStatistics} analyzes it as soon as the statistics count the burst. The claim runs on
 * one connection of the server's pool, as FETCH runs it, in transactions rolled back; what it read is the
 * transaction's own count of sequential scans of jobs (pg_stat_xact_user_tables). Autovacuum is off for jobs during
 * the test, so nothing but the task analyzes the table between the steps.
 */
@QuarkusTest
class StatisticsAfterBurstTest {

    private static final int BURST = 30_000;

    @Inject
    Pool pool;

    @Inject
    TableStatistics statistics;

    @Test
    void theCachedClaimReadsTheIndexAgainOnceTheBurstIsAnalyzed() throws Exception {
        Api.reset();
        String queue = "burst-" + System.nanoTime();
        SqlConnection c = pool.getConnection().await().indefinitely();
        try {
            run(c, "ALTER TABLE jobs SET (autovacuum_enabled = false)");
            run(c, "ANALYZE jobs");
            for (int i = 0; i < 7; i++) { // five custom plans, then the generic one, made while jobs is empty
                seqScansOfClaim(c, queue);
            }
            run(c, "INSERT INTO jobs (id, type, queue, args, state, max_attempts, retry_policy, visibility_timeout_ms,"
                    + " created_at, run_at, enqueued_at) SELECT gen_random_uuid(), 'burst.test', '" + queue + "', '[]',"
                    + " 'available', 3, '{}', 30000, now(), now(), now() FROM generate_series(1, " + BURST + ")");
            assertTrue(seqScansOfClaim(c, queue) > 0, "the plan made while the table was empty reads it whole"
                    + " after the burst (without that, this test shows nothing)");

            // the statistics count the burst within a second or so; then the task analyzes jobs, on its schedule or
            // on this call (autovacuum is off for the table: nothing else does), and the plans are made again once
            // the ANALYZE commits (its row count is visible a moment earlier)
            long seqScans = 1;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (seqScans > 0 && System.nanoTime() < deadline) {
                statistics.runOnce().await().indefinitely();
                Thread.sleep(100);
                seqScans = seqScansOfClaim(c, queue);
            }
            assertTrue(analyzedRows(c) >= BURST / 2, "jobs was not analyzed after the burst: " + analyzedRows(c));
            assertEquals(0, seqScans, "after the ANALYZE the claim reads the index");
            assertEquals(false, statistics.runOnce().await().indefinitely(), "analyzed once, not on every run");
        } finally {
            run(c, "ALTER TABLE jobs RESET (autovacuum_enabled)");
            c.closeAndAwait();
            Api.reset();
        }
    }

    /** The claim of 10 from {@code queue}, rolled back; how many sequential scans of jobs it made. */
    private static long seqScansOfClaim(SqlConnection c, String queue) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return c.begin().chain(tx -> c.preparedQuery(JobSql.claimOne(10))
                .execute(Tuple.tuple(Arrays.asList(queue, now, "w", null, 20)))
                .chain(() -> c.query("SELECT coalesce(sum(seq_scan), 0)::int8 FROM pg_stat_xact_user_tables"
                        + " WHERE relname = 'jobs'").execute())
                .map(rows -> rows.iterator().next().getLong(0))
                .call(tx::rollback)).await().indefinitely();
    }

    /** The rows the last ANALYZE of jobs counted. */
    private static long analyzedRows(SqlConnection c) {
        return c.query("SELECT reltuples::int8 FROM pg_class WHERE oid = 'jobs'::regclass").execute()
                .await().indefinitely().iterator().next().getLong(0);
    }

    private static void run(SqlConnection c, String sql) {
        c.query(sql).execute().await().indefinitely();
    }
}
