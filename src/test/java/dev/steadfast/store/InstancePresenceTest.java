package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import dev.steadfast.testsupport.DatasourceSettings;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Instances see each other through their presence locks, with their keys, and one that leaves is gone at once:
 * a second presence on the same database stands in for a second instance.
 */
@QuarkusTest
class InstancePresenceTest {

    @Inject
    InstancePresence presence;

    @Inject
    Vertx vertx;

    @Inject
    Pool pool;

    @Inject
    DatabaseConfig database;

    @Inject
    PrimaryHosts primary;

    @Inject
    DatasourceSettings db;

    @Inject
    SessionConnections sessions;

    @Test
    void aSecondInstanceIsSeenWithItsKeyAndGoneWhenItLeaves() {
        List<Long> before = presence.present().await().atMost(Duration.ofSeconds(10));
        assertTrue(before.size() >= 1, "this test's own application joined at start-up: " + before);
        InstancePresence other = new InstancePresence(vertx, pool, db.reactiveUrl(), db.user(), db.password(), database,
                primary, sessions);
        other.join(123_456).await().atMost(Duration.ofSeconds(10));
        List<Long> with = presence.present().await().atMost(Duration.ofSeconds(10));
        assertEquals(before.size() + 1, with.size());
        assertTrue(with.contains(123_456L), with.toString());
        other.leave();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<Long> after = with;
        while (after.contains(123_456L) && System.nanoTime() < deadline) { // the backend ends its session
            after = presence.present().await().atMost(Duration.ofSeconds(10));
        }
        assertEquals(before.size(), after.size());
    }
}
