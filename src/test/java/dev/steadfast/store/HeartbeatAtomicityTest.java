package dev.steadfast.store;

import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.jobView;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.steadfast.store.workers.WorkerStore;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A heartbeat is one transaction: when recording the worker fails after the leases were extended, the
 * extension is rolled back too. The API refuses such values before they get here; this drives the store
 * directly with a hostname PostgreSQL cannot store, to prove the store itself leaves nothing half-applied.
 */
@QuarkusTest
class HeartbeatAtomicityTest {

    @Inject
    TestClock clock;

    @Inject
    WorkerStore workers;

    @Test
    void aHeartbeatThatFailsHalfWayExtendsNoLease() {
        Api.reset();
        String id = enqueue("beat.atomic", "beat-atomic");
        assertEquals(id, fetchOne("w-atomic", "beat-atomic"));
        Object lease = jobView(id).get("lease_expires_at");
        Instant later = clock.instant().plusSeconds(5).truncatedTo(ChronoUnit.MICROS);
        assertThrows(RuntimeException.class, () -> workers.beat("w-atomic", new UUID[] {UUID.fromString(id)},
                600_000L, "host\u0000name", null, later).await().atMost(Duration.ofSeconds(10)));
        assertEquals(lease, jobView(id).get("lease_expires_at"), "the lease was not extended");
        WorkerStore.Beat ok = workers.beat("w-atomic", new UUID[] {UUID.fromString(id)}, 600_000L, "host", null,
                later).await().atMost(Duration.ofSeconds(10));
        assertEquals(1, ok.extended().size(), "the same heartbeat without the bad value extends it");
    }
}
