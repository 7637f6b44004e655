package dev.steadfast.operations;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.info;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.maintenance.Pruner;
import dev.steadfast.store.Completion;
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
        info(id).then().statusCode(200).body("job.state", org.hamcrest.Matchers.equalTo("completed"));

        maintenance.preparePartitions(longAgo, 0).await().indefinitely();
        assertEquals("job_history_done_20010203", partitionOf(id));
        info(id).then().statusCode(200);

        pruner.runOnce(clock.instant()).await().indefinitely();
        info(id).then().statusCode(404);
    }

    private String complete(String queue, Instant at) {
        String id = enqueue(obj("type", "p.t", "args", arr(), "options", obj("queue", queue)));
        assertEquals(id, fetchOne("w", queue));
        List<Completion.Done> done = jobs.complete(List.of(new Completion(UUID.fromString(id), null, null)), at)
                .await().indefinitely();
        assertEquals(1, done.size());
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
