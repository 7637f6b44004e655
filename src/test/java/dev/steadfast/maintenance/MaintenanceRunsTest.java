package dev.steadfast.maintenance;

import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's wrapper around each maintenance task: a failed or hung run is reported and swallowed (the next
 * tick runs as usual), a successful one is recorded, and readiness and metrics show each task's last success.
 */
@QuarkusTest
class MaintenanceRunsTest {

    @Inject
    TestClock clock;

    @Inject
    MaintenanceRuns runs;

    @Inject
    MaintenanceHealth health;

    @Test
    void aSuccessfulRunIsRecordedWithTheInstantItWasGiven() {
        AtomicReference<Instant> given = new AtomicReference<>();
        Instant before = clock.instant();
        runs.run("test-ok", now -> {
            given.set(now);
            return Uni.createFrom().item(3);
        }).await().indefinitely();
        assertFalse(given.get().isBefore(before.minusMillis(1)));
        assertTrue(health.lastSuccess("test-ok").isPresent());
    }

    @Test
    void aFailingRunIsSwallowedAndNotRecorded() {
        assertNull(runs.run("test-fails", now -> Uni.createFrom().failure(new IllegalStateException("db down\nreally")))
                .await().indefinitely());
        assertNull(runs.run("test-throws", now -> {
            throw new IllegalStateException("thrown, not returned");
        }).await().indefinitely());
        assertFalse(health.lastSuccess("test-fails").isPresent());
        assertFalse(health.lastSuccess("test-throws").isPresent());
    }

    @Test
    void aRunThatNeverAnswersIsAbandonedAtItsTimeout() {
        assertNull(runs.run("test-hangs", Duration.ofMillis(50), now -> Uni.createFrom().nothing())
                .await().indefinitely());
        assertFalse(health.lastSuccess("test-hangs").isPresent());
    }

    @Test
    void readinessShowsEachTaskAndTurnsDownWhenOneStopsSucceeding() {
        assertEquals(HealthCheckResponse.Status.UP, health.check(clock.instant()).getStatus());
        HealthCheckResponse later = health.check(clock.instant().plus(Duration.ofHours(1)));
        assertEquals(HealthCheckResponse.Status.DOWN, later.getStatus());
        assertTrue(later.getData().orElseThrow().get("lease-reaper").toString().contains("STALE"));
        request().get("/q/health/ready").then().statusCode(200).body(at("checks.name", hasItem("maintenance")));
    }

    @Test
    void theLastSuccessOfEachTaskIsAGauge() {
        request().get("/q/metrics").then().statusCode(200)
                .body(containsString("steadfast_maintenance_last_success_seconds{task=\"lease-reaper\"}"))
                .body(containsString("steadfast_maintenance_last_success_seconds{task=\"retry-promoter\"}"))
                .body(containsString("steadfast_maintenance_last_success_seconds{task=\"pruner\"}"));
    }
}
