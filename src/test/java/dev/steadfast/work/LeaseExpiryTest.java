package dev.steadfast.work;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.fixedRetry;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.maintenance.MaintenanceHealth;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A worker that takes a job and never answers: the lease reaper, run directly with a clock past the lease,
 * turns the silence into a failed attempt that follows the retry policy, and the old worker's late answers are
 * refused.
 */
@QuarkusTest
class LeaseExpiryTest {

    @Inject
    TestClock clock;

    @Inject
    LeaseReaper reaper;

    @Inject
    Scheduler scheduler;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static Map<String, Object> job(String queue, Map<String, Object> options) {
        Map<String, Object> o = new java.util.LinkedHashMap<>(options);
        o.put("queue", queue);
        return obj("type", "lease.test", "args", arr(1), "options", o);
    }

    @Test
    void aLeaseEndTakesTheJobBackWithoutTheScheduledReaperOrAnotherFetch() {
        String id = enqueue(job("lease-timer", obj("visibility_timeout_ms", 1_000, "retry", fixedRetry(3, "PT0.001S"))));
        // Only the timer armed when FETCH handed out the lease can take it back: the scheduled reaper is paused
        // and no other FETCH (which reaps beside its claim) comes.
        scheduler.pause(MaintenanceHealth.LEASE_REAPER);
        try {
            assertEquals(id, fetchOne("worker-gone", "lease-timer"));
            Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> !"active".equals(jobView(id).get("state")));
            List<Map<String, Object>> errors = (List<Map<String, Object>>) jobView(id).get("errors");
            assertEquals("visibility_timeout", errors.get(0).get("type"));
        } finally {
            scheduler.resume(MaintenanceHealth.LEASE_REAPER);
        }
    }

    @Test
    void aSilentWorkersJobComesBackAsAFailedAttemptAndItsLateAckIsRefused() {
        String id = enqueue(job("lease-q", obj("visibility_timeout_ms", 60_000, "retry", fixedRetry(3, "PT0.001S"))));
        assertEquals(id, fetchOne("worker-a", "lease-q"));

        // The reaper is given a later instant rather than the server's clock moved: with a moved clock the
        // scheduled reaper and FETCH's own reap would take the lease back too, and the count would race them.
        int reaped = reaper.runOnce(clock.instant().plus(Duration.ofSeconds(61))).await().indefinitely();
        assertEquals(1, reaped);

        Map<String, Object> job = jobView(id);
        assertEquals("available", job.get("state"), "the backoff (1 ms) had passed since the worker's last sign of life");
        assertEquals(1, job.get("attempt"));
        List<Map<String, Object>> errors = (List<Map<String, Object>>) job.get("errors");
        assertEquals(1, errors.size());
        assertEquals("visibility_timeout", errors.get(0).get("type"));
        assertEquals("timeout", errors.get(0).get("code"));
        assertEquals(1, errors.get(0).get("attempt"));
        assertTrue(((String) errors.get(0).get("message")).contains("worker-a"));

        Api.ack(id, "worker-a", null).then().statusCode(409);

        assertEquals(id, fetchOne("worker-b", "lease-q"));
        assertEquals(2, jobView(id).get("attempt"), "the next attempt is attempt + 1");
        Api.ack(id, "worker-a", obj("late", true)).then().statusCode(409).body(at("error.code",
                org.hamcrest.Matchers.equalTo("conflict")));
        assertEquals("active", jobView(id).get("state"), "the refused ack changed nothing");
        Api.ack(id, "worker-b", obj("ok", true)).then().statusCode(200);
        assertEquals("completed", jobView(id).get("state"));
    }

    @Test
    void aLeaseThatExpiresBeforeTheBackoffMakesTheJobRetryable() {
        Map<String, Object> hourly = fixedRetry(3, "PT1H");
        hourly.put("max_interval", "PT1H");
        String id = enqueue(job("lease-q2", obj("visibility_timeout_ms", 1000, "retry", hourly)));
        fetchOne("w", "lease-q2");
        reaper.runOnce(clock.instant().plus(Duration.ofSeconds(2))).await().indefinitely();
        Map<String, Object> job = jobView(id);
        assertEquals("retryable", job.get("state"));
        assertEquals(3_600_000, ((Number) job.get("retry_delay_ms")).intValue());
        assertTrue(job.containsKey("next_retry_at"));
    }

    @Test
    void runningPastTimeoutMsIsAnExecutionTimeout() {
        String id = enqueue(job("lease-q3", obj("timeout_ms", 1000, "retry", fixedRetry(2, "PT0.001S"))));
        fetchOne("w", "lease-q3");
        assertTrue(((String) jobView(id).get("lease_expires_at")) != null);
        reaper.runOnce(clock.instant().plus(Duration.ofSeconds(2))).await().indefinitely();
        Map<String, Object> job = jobView(id);
        Map<String, Object> error = (Map<String, Object>) job.get("error");
        assertEquals("timeout", error.get("type"));
        assertEquals("available", job.get("state"));
    }

    @Test
    void exhaustedAttemptsByLeaseExpiryDeadLetterTheJob() {
        String id = enqueue(job("lease-q4", obj("visibility_timeout_ms", 1000,
                "retry", obj("max_attempts", 1, "on_exhaustion", "dead_letter"))));
        fetchOne("w", "lease-q4");
        reaper.runOnce(clock.instant().plus(Duration.ofSeconds(2))).await().indefinitely();
        Map<String, Object> job = jobView(id);
        assertEquals("discarded", job.get("state"));
        assertEquals(true, job.get("dead_letter"));
        Api.request().get("/ojs/v1/dead-letter/" + id).then().statusCode(200);
    }

    @Test
    void aHeartbeatKeepsTheLeaseAndOnlyTheHolderCanExtendIt() {
        String id = enqueue(job("lease-q5", obj("visibility_timeout_ms", 2000)));
        fetchOne("holder", "lease-q5");
        String before = (String) jobView(id).get("lease_expires_at");

        Api.assertError(send(obj("worker_id", "intruder", "active_jobs", arr(id))).post("/ojs/v1/workers/heartbeat"),
                409, "conflict");
        assertEquals(before, jobView(id).get("lease_expires_at"), "a worker that does not hold the lease extends nothing");

        send(obj("worker_id", "holder", "active_jobs", arr(id), "visibility_timeout_ms", 600_000))
                .post("/ojs/v1/workers/heartbeat").then().statusCode(200)
                .body(at("state", org.hamcrest.Matchers.equalTo("running")))
                .body(at("jobs_extended[0]", org.hamcrest.Matchers.equalTo(id)));
        String after = (String) jobView(id).get("lease_expires_at");
        assertTrue(after.compareTo(before) > 0, "the lease moved forward: " + before + " -> " + after);

        reaper.runOnce(clock.instant().plus(Duration.ofSeconds(10))).await().indefinitely();
        assertEquals("active", jobView(id).get("state"), "an extended lease is not reaped");
    }

    @Test
    void anOperatorDirectiveReachesTheWorkerInItsNextHeartbeat() {
        send(obj("worker_id", "w-quiet")).post("/ojs/v1/workers/heartbeat").then().statusCode(200)
                .body(at("state", org.hamcrest.Matchers.equalTo("running")));
        Api.request().post("/ojs/v1/admin/workers/w-quiet/quiet").then().statusCode(200);
        send(obj("worker_id", "w-quiet")).post("/ojs/v1/workers/heartbeat").then().statusCode(200)
                .body(at("state", org.hamcrest.Matchers.equalTo("quiet")))
                .body(at("directive", org.hamcrest.Matchers.equalTo("quiet")));
        Api.request().post("/ojs/v1/admin/workers/w-quiet/terminate").then().statusCode(200);
        send(obj("worker_id", "w-quiet")).post("/ojs/v1/workers/heartbeat").then()
                .body(at("state", org.hamcrest.Matchers.equalTo("terminate")));
        Api.request().get("/ojs/v1/admin/workers").then().statusCode(200)
                .body("items.find { it.id == 'w-quiet' }.directive", org.hamcrest.Matchers.equalTo("terminate"));
    }
}
