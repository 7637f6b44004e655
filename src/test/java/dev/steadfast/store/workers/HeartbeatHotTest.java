package dev.steadfast.store.workers;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.store.JobStore;
import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A heartbeat is a HOT update: it writes only columns no index of the live table reads (V36 took the lease's end out
 * of the reaper's index), so its new row version stays on its page and no index gets an entry.
 *
 * <p>HOT also needs room on the page. The jobs here are few enough that their three row versions each (the PUSH's, the
 * claim's, the heartbeat's) fit on one page without pruning: with twenty, the page held only room for the heartbeats
 * of those whose earlier versions PostgreSQL had pruned, which depends on what other sessions' snapshots still see
 * (17 of 20 HOT when this class ran alone, on V38 as on V40).
 */
@QuarkusTest
class HeartbeatHotTest {

    /** Jobs whose three row versions fit on one page of the live table (fillfactor 70) without pruning. */
    private static final int JOBS = 5;

    @Inject
    Pool pool;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void noIndexOfTheLiveTableReadsAColumnAHeartbeatWrites() {
        List<String> written = new ArrayList<>();
        Matcher m = Pattern.compile("(\\w+) = ").matcher(WorkerStore.LEASE_EXTENSION);
        while (m.find()) {
            written.add(m.group(1));
        }
        assertEquals(List.of("lease_renewed_at", "lease_expires_at"), written);
        for (Row r : pool.query("SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS def"
                + " FROM pg_index WHERE indrelid = 'jobs'::regclass").execute().await().indefinitely()) {
            for (String column : written) {
                assertTrue(!Pattern.compile("\\b" + column + "\\b").matcher(r.getString("def")).find(),
                        r.getString("name") + " reads " + column + ", which every heartbeat writes: " + r.getString("def"));
            }
        }
    }

    @Test
    void heartbeatsOfFiveJobsAreFiveHotUpdates() {
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            jobs.add(obj("type", "hot.test", "queue", "hot-q", "args", arr(i)));
        }
        assertEquals(201, Api.send(obj("jobs", jobs)).post(Api.JOBS + "/batch").statusCode());
        List<String> active = fetchIds("hot-w", JOBS, "hot-q");
        assertEquals(JOBS, active.size());
        UUID[] ids = active.stream().map(UUID::fromString).toArray(UUID[]::new);
        SqlConnection c = pool.getConnection().await().indefinitely();
        try {
            c.query("BEGIN").execute().await().indefinitely();
            Row before = counts(c);
            int extended = c.preparedQuery(WorkerStore.EXTEND_LEASES_OF)
                    .execute(Tuple.tuple(Arrays.asList(ids, "hot-w", JobStore.odt(Instant.now()), null,
                            JobStateMachine.sourceNames(Operation.HEARTBEAT))))
                    .await().indefinitely().rowCount();
            assertEquals(JOBS, extended);
            Row after = counts(c);
            assertEquals(JOBS, after.getLong("updated") - before.getLong("updated"));
            assertEquals(JOBS, after.getLong("hot") - before.getLong("hot"), "every heartbeat update is HOT");
            c.query("ROLLBACK").execute().await().indefinitely();
        } finally {
            c.close().await().indefinitely();
        }
    }

    /** This session's updates of the live table not reported yet (this transaction's among them), and how many HOT. */
    private static Row counts(SqlConnection c) {
        return c.query("SELECT pg_stat_get_xact_tuples_updated('jobs'::regclass) AS updated,"
                + " pg_stat_get_xact_tuples_hot_updated('jobs'::regclass) AS hot").execute()
                .await().indefinitely().iterator().next();
    }
}
