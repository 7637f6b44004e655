package dev.steadfast.operations;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.info;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.maintenance.Pruner;
import dev.steadfast.maintenance.SearchIndexer;
import dev.steadfast.model.Completion;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.maintenance.MaintenanceStore;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Finished jobs land in the history partition of the UTC day they finished (V18), across a day boundary; retention
 * drops a whole day once it is past, and keeps the next; a job whose day had no partition waits in the default
 * partition and moves into its day's partition when that is created. Completion instants are passed to the store
 * directly (the lease guard only asks that the lease had not run out at that instant).
 */
@QuarkusTest
class HistoryPartitionsTest {

    @Inject
    TestClock clock;

    @Inject
    JobStore jobs;

    @Inject
    MaintenanceStore maintenance;

    @Inject
    Pruner pruner;

    @Inject
    Pool pool;

    @Inject
    SearchIndexer searchIndexer;

    @Inject
    io.quarkus.scheduler.Scheduler scheduler;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void jobsFinishedEitherSideOfMidnightLandInTheirDaysAndRetentionDropsOnlyThePastDay() {
        Instant midnight = LocalDate.now(ZoneOffset.UTC).atStartOfDay().toInstant(ZoneOffset.UTC);
        maintenance.preparePartitions(midnight.minus(Duration.ofDays(1)), 1).await().indefinitely();
        String before = complete("p-before", midnight.minusMillis(1));
        String after = complete("p-after", midnight);

        assertEquals(partition(midnight.minus(Duration.ofDays(1))), partitionOf(before));
        assertEquals(partition(midnight), partitionOf(after));

        // Retention 7 days (the default): at noon seven days on, yesterday is past, today is not.
        int dropped = pruner.runOnce(midnight.plus(Duration.ofDays(7)).plus(Duration.ofHours(12)))
                .await().indefinitely();
        assertEquals(1, dropped, "the one job of the dropped day");
        info(before).then().statusCode(404);
        info(after).then().statusCode(200);
        assertEquals(0L, count("SELECT count(*) FROM pg_class WHERE relname = $1",
                partition(midnight.minus(Duration.ofDays(1)))));
    }

    @Test
    void aJobWhoseDayHasNoPartitionWaitsInTheDefaultOneAndMovesWhenItsDayIsCreated() {
        Instant longAgo = Instant.parse("2001-02-03T04:05:06Z");
        String id = complete("p-stray", longAgo);
        assertEquals("job_history_done_default", partitionOf(id));
        info(id).then().statusCode(200).body(at("job.state", org.hamcrest.Matchers.equalTo("completed")));

        maintenance.preparePartitions(longAgo, 0).await().indefinitely();
        assertEquals("job_history_done_20010203", partitionOf(id));
        info(id).then().statusCode(200);

        pruner.runOnce(clock.instant()).await().indefinitely();
        info(id).then().statusCode(404);
    }

    /**
     * The search indexer builds the trigram index (and the state, queue, type and tag indexes) of every partition that no longer takes the hot path's writes
     * (yesterday's, the dead letters', the default one), never today's or a later day's, and none on the live table;
     * a failed build's leftover (an invalid index of that name) is dropped and built again.
     */
    @Test
    void searchIndexesAreBuiltOnClosedPartitionsOnlyAndAFailedBuildIsRedone() {
        Instant midnight = LocalDate.now(ZoneOffset.UTC).atStartOfDay().toInstant(ZoneOffset.UTC);
        maintenance.preparePartitions(midnight.minus(Duration.ofDays(1)), 2).await().indefinitely();
        complete("s-one", midnight.minus(Duration.ofHours(1)));
        complete("s-one", midnight.minus(Duration.ofHours(2)));
        String yesterday = partition(midnight.minus(Duration.ofDays(1)));
        scheduler.pause(SearchIndexer.IDENTITY);
        try {
            leftoverRebuilt(midnight, yesterday);
        } finally {
            scheduler.resume(SearchIndexer.IDENTITY);
        }
    }

    private void leftoverRebuilt(Instant midnight, String yesterday) {
        // the scheduled indexer (paused now) may be building, or have built, yesterday's index already
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (pool.query("SELECT 1 FROM pg_stat_progress_create_index").execute().await().indefinitely().rowCount() > 0
                && System.nanoTime() < deadline) {
            io.smallrye.mutiny.Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(50))
                    .await().indefinitely();
        }
        for (String leaf : List.of(yesterday, "job_history_dead", "job_history_done_default")) {
            pool.query("DROP INDEX IF EXISTS " + leaf + "_search_idx").execute().await().indefinitely();
        }
        // a unique index over two equal values fails half way, leaving an invalid index behind under the search's name
        pool.query("CREATE UNIQUE INDEX CONCURRENTLY " + yesterday + "_search_idx ON " + yesterday + " (queue)")
                .execute().onFailure().recoverWithNull().await().indefinitely();
        assertEquals(1L, count("SELECT count(*) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
                + " WHERE i.relname = $1 AND NOT x.indisvalid", yesterday + "_search_idx"));

        java.util.Set<String> built = new java.util.TreeSet<>();
        for (var b = searchIndexer.runOnce().await().indefinitely(); b.isPresent();
             b = searchIndexer.runOnce().await().indefinitely()) {
            assertTrue(built.add(b.get()), "built twice: " + b.get());
        }
        assertTrue(built.containsAll(List.of(yesterday, "job_history_dead", "job_history_done_default")), built.toString());
        for (String leaf : built) {
            assertEquals(1L, count("SELECT count(*) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
                    + " WHERE i.relname = $1 AND x.indisvalid AND pg_get_indexdef(x.indexrelid) LIKE '%gin_trgm_ops%'",
                    leaf + "_search_idx"), leaf);
            // and the filters' keyset indexes, which the hot path no longer writes either (V32)
            for (String filter : List.of("state", "queue", "type")) {
                assertEquals(1L, count("SELECT count(*) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
                        + " WHERE i.relname = $1 AND x.indisvalid AND pg_get_indexdef(x.indexrelid) LIKE"
                        + " '%(" + filter + ", created_at, id)'", leaf + "_" + filter + "_created_idx"), leaf + " " + filter);
            }
            assertEquals(1L, count("SELECT count(*) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
                    + " WHERE i.relname = $1 AND x.indisvalid AND pg_get_indexdef(x.indexrelid) LIKE '%gin (tags)'",
                    leaf + "_tags_idx"), leaf + " tags");
        }
        for (int day = 0; day <= 1; day++) {
            String open = partition(midnight.plus(Duration.ofDays(day)));
            assertTrue(!built.contains(open), open + " is still written to");
            assertEquals(0L, count("SELECT count(*) FROM pg_indexes WHERE tablename = $1 AND indexdef LIKE"
                    + " '%gin_trgm_ops%'", open), open);
            // an open day writes its id, order, depth, finish-time and partial indexes only
            assertEquals(0L, count("SELECT count(*) FROM pg_indexes WHERE tablename = $1 AND (indexdef LIKE"
                    + " '%(state, created_at, id)' OR indexdef LIKE '%(queue, created_at, id)' OR indexdef LIKE"
                    + " '%(type, created_at, id)' OR indexdef LIKE '%gin (tags)')", open), open);
        }
        assertEquals(0L, count("SELECT count(*) FROM pg_indexes WHERE tablename = $1 AND indexdef LIKE"
                + " '%gin_trgm_ops%'", "jobs"), "the live table");
    }

    private String complete(String queue, Instant at) {
        String id = enqueue(obj("type", "p.t", "args", arr(), "options", obj("queue", queue)));
        assertEquals(id, fetchOne("w", queue));
        List<Completion.Result> done = jobs.complete(List.of(new Completion(UUID.fromString(id), null, null)), at)
                .await().indefinitely();
        assertEquals(1, done.size());
        assertTrue(done.get(0) instanceof Completion.Done, () -> "refused: " + done);
        return id;
    }

    private String partitionOf(String id) {
        return pool.preparedQuery("SELECT tableoid::regclass::text FROM job_history WHERE id = $1")
                .execute(Tuple.of(UUID.fromString(id))).await().indefinitely().iterator().next().getString(0);
    }

    private long count(String sql, String arg) {
        return pool.preparedQuery(sql).execute(Tuple.of(arg)).await().indefinitely().iterator().next().getLong(0);
    }

    private static String partition(Instant day) {
        return "job_history_done_" + LocalDate.ofInstant(day, ZoneOffset.UTC).toString().replace("-", "");
    }
}
