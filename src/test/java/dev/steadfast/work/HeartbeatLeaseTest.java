package dev.steadfast.work;

import dev.steadfast.testsupport.TestClock;
import static dev.steadfast.testsupport.Api.FETCH;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.retry.Lease;
import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A heartbeat extends a lease by the domain rule {@link Lease#extend}: never shorter than already granted, never
 * past the execution deadline. The heartbeat's SQL (WorkerStore.EXTEND_LEASES) is checked against that rule here.
 */
@QuarkusTest
class HeartbeatLeaseTest {

    @Inject
    TestClock clock;

    /**
     * The server's clock stands still: the 1 s lease below must not run out between the requests, however slow the
     * machine (it did, on a loaded one, and the reaper took the job back).
     */
    @BeforeEach
    void reset() {
        Api.reset();
        clock.freeze();
    }

    @AfterEach
    void resetClock() {
        clock.reset();
    }

    private static Instant leaseOf(String id) {
        return Instant.parse((String) jobView(id).get("lease_expires_at"));
    }

    private static void beat(String worker, String id, long visibilityMs) {
        send(obj("worker_id", worker, "active_jobs", arr(id), "visibility_timeout_ms", visibilityMs))
                .post("/ojs/v1/workers/heartbeat").then().statusCode(200);
    }

    private static String fetchWithLease(String worker, String queue, long visibilityMs) {
        return send(obj("queues", arr(queue), "count", 1, "worker_id", worker, "visibility_timeout_ms", visibilityMs))
                .post(FETCH).then().statusCode(200).extract().path("jobs[0].id");
    }

    @Test
    void aHeartbeatWithAShorterVisibilityTimeoutNeverShortensTheLease() {
        String id = enqueue("hb.short", "hb-q");
        assertEquals(id, fetchWithLease("w", "hb-q", 600_000));
        Instant granted = leaseOf(id);
        beat("w", id, 1_000);
        assertEquals(granted, leaseOf(id), "a 1 s heartbeat keeps the 10 minute lease");
        // The domain rule says the same for any instant before expiry.
        Lease lease = new Lease("w", granted);
        assertEquals(granted, lease.extend(clock.instant(), Duration.ofSeconds(1), null).expiresAt());
    }

    @Test
    void aLongerVisibilityTimeoutExtendsItButNeverPastTheDeadline() {
        String id = enqueue(obj("type", "hb.long", "args", arr(),
                "options", obj("queue", "hb-deadline", "timeout_ms", 120_000)));
        assertEquals(id, fetchWithLease("w", "hb-deadline", 1_000));
        Instant granted = leaseOf(id);
        beat("w", id, 60_000);
        Instant extended = leaseOf(id);
        assertTrue(extended.isAfter(granted), extended + " after " + granted);
        beat("w", id, 3_600_000);
        Instant capped = leaseOf(id);
        Instant deadline = Instant.parse((String) jobView(id).get("started_at")).plusMillis(120_000);
        assertEquals(deadline, capped, "capped at started_at + timeout_ms");
        assertEquals(capped, new Lease("w", extended).extend(extended.minusSeconds(1), Duration.ofHours(1), deadline)
                .expiresAt(), "the domain rule gives the same answer");
    }
}
