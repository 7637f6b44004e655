package dev.steadfast.store.queues;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.model.JobRow;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.DatasourceSettings;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.PoolOptions;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Many FETCHes at once, from two connection pools (two instances' worth of connections on one database), never start
 * more of a key's jobs than its limits allow, never hand a job out twice, and do not hold back jobs without a key.
 */
@QuarkusTest
class RateLimitConcurrencyTest {

    @Inject
    TestClock clock;

    @Inject
    RateLimitStore store;

    @Inject
    Vertx vertx;

    @Inject
    DatasourceSettings db;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void concurrentFetchesFromTwoPoolsKeepEveryKeysLimits() {
        for (int i = 0; i < 30; i++) {
            enqueue(obj("type", "t.conc", "args", arr(i), "options",
                    obj("queue", "rl-race", "rate_limit", obj("key", "race-conc", "concurrency", 3))));
            enqueue(obj("type", "t.rate", "args", arr(i), "options", obj("queue", "rl-race-2",
                    "rate_limit", obj("key", "race-rate", "rate", obj("limit", 5, "period", "P1D")))));
        }
        for (int i = 0; i < 20; i++) {
            enqueue(obj("type", "t.plain", "args", arr(i), "options", obj("queue", "rl-race")));
        }
        io.vertx.sqlclient.Pool core = PgBuilder.pool().with(new PoolOptions().setMaxSize(8))
                .connectingTo(db.connectOptions()).using(vertx).build();
        RateLimitStore other = new RateLimitStore(io.vertx.mutiny.sqlclient.Pool.newInstance(core));
        try {
            Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
            List<String> queues = List.of("rl-race", "rl-race-2");
            List<Uni<List<JobRow>>> fetches = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                RateLimitStore s = i % 2 == 0 ? store : other;
                fetches.add(s.claim(queues, 4, "w-" + i, 3_600_000L, now, new RateLimitOutcomes(), List.of()));
            }
            List<JobRow> got = new ArrayList<>();
            Uni.join().all(fetches).andFailFast().await().atMost(Duration.ofSeconds(60)).forEach(got::addAll);
            Map<String, Integer> byType = count(got);
            assertTrue(byType.getOrDefault("t.conc", 0) <= 3, "concurrency 3: " + byType);
            assertTrue(byType.getOrDefault("t.rate", 0) <= 5, "5 a day: " + byType);

            // what the race left (a key held by another fetch is passed over, not waited for) comes out now
            for (int i = 0; i < 10; i++) {
                got.addAll(other.claim(queues, 50, "w-sweep", 3_600_000L, now, new RateLimitOutcomes(), List.of())
                        .await().atMost(Duration.ofSeconds(10)));
            }
            Set<java.util.UUID> ids = new HashSet<>();
            got.forEach(j -> assertTrue(ids.add(j.id()), "handed out twice: " + j.id()));
            byType = count(got);
            assertEquals(3, byType.get("t.conc"), byType.toString());
            assertEquals(5, byType.get("t.rate"), byType.toString());
            assertEquals(20, byType.get("t.plain"), byType.toString());
        } finally {
            core.close();
        }
    }

    private static Map<String, Integer> count(List<JobRow> jobs) {
        Map<String, Integer> m = new HashMap<>();
        jobs.forEach(j -> m.merge(j.type(), 1, Integer::sum));
        return m;
    }
}
