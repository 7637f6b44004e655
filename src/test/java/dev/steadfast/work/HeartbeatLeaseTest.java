package dev.steadfast.work;

import static dev.steadfast.testsupport.Api.FETCH;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.Lease;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A claim grants a lease by the domain rule {@link Lease#expiry} (now + visibility, capped by the execution deadline)
 * and a heartbeat extends it by {@link Lease#extend}: never shorter than already granted, never past the execution
 * deadline. The claim's and the heartbeat's SQL (JobSql.START, WorkerStore.EXTEND_LEASES) are checked against those
 * rules here.
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
        return path(send(obj("queues", arr(queue), "count", 1, "worker_id", worker, "visibility_timeout_ms", visibilityMs))
                .post(FETCH).then().statusCode(200).extract(), "jobs[0].id");
    }

    @Test
    void theClaimGrantsTheLeaseTheDomainRuleGives() {
        String shortLease = enqueue(obj("type", "hb.claim", "args", arr(),
                "options", obj("queue", "hb-claim", "timeout_ms", 120_000)));
        assertEquals(shortLease, fetchWithLease("w", "hb-claim", 30_000));
        Instant started = Instant.parse((String) jobView(shortLease).get("started_at"));
        assertEquals(Lease.expiry(started, Duration.ofSeconds(30), started.plusMillis(120_000)), leaseOf(shortLease),
                "the visibility timeout, inside the deadline");

        String capped = enqueue(obj("type", "hb.claim", "args", arr(),
                "options", obj("queue", "hb-claim-capped", "timeout_ms", 5_000)));
        assertEquals(capped, fetchWithLease("w", "hb-claim-capped", 600_000));
        started = Instant.parse((String) jobView(capped).get("started_at"));
        assertEquals(Lease.expiry(started, Duration.ofMinutes(10), started.plusMillis(5_000)), leaseOf(capped),
                "capped at started_at + timeout_ms");
        assertEquals(started.plusMillis(5_000), leaseOf(capped));
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
