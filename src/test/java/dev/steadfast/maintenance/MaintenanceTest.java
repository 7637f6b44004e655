package dev.steadfast.maintenance;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.fixedRetry;
import static dev.steadfast.testsupport.Api.info;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import dev.steadfast.work.RetryPromoter;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The promoter and the pruner, each run directly with a clock in the future. */
@QuarkusTest
class MaintenanceTest {

    @Inject
    TestClock clock;

    @Inject
    RetryPromoter promoter;

    @Inject
    Pruner pruner;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void aDueRetryableJobIsPromotedToAvailableAndNotBefore() {
        java.util.Map<String, Object> hourly = fixedRetry(3, "PT1H");
        hourly.put("max_interval", "PT1H");
        String id = enqueue(obj("type", "m.t", "args", arr(), "options", obj("queue", "promote-q", "retry", hourly)));
        fetchOne("w", "promote-q");
        nack(id, error("handler_error", "boom")).then().statusCode(200);
        assertEquals("retryable", jobView(id).get("state"));
        promoter.runOnce(clock.advance(Duration.ofMinutes(30))).await().indefinitely();
        assertEquals("retryable", jobView(id).get("state"), "RET-11: not available before the backoff elapses");
        assertEquals(0, Api.fetchIds("w", 1, "promote-q").size(), "nor fetchable half way through it");
        promoter.runOnce(clock.advance(Duration.ofMinutes(31))).await().indefinitely();
        assertEquals("available", jobView(id).get("state"));
    }

    @Test
    void aScheduledJobIsPromotedWhenItsTimeComes() {
        String at = clock.instant().plus(Duration.ofHours(2)).toString();
        String id = enqueue(obj("type", "m.t", "args", arr(), "options", obj("queue", "sched-q", "scheduled_at", at)));
        assertEquals("scheduled", jobView(id).get("state"));
        promoter.runOnce(clock.advance(Duration.ofHours(3))).await().indefinitely();
        assertEquals("available", jobView(id).get("state"));
    }

    @Test
    void finishedJobsArePrunedAfterRetentionButDeadLettersAreKept() {
        String done = enqueue(obj("type", "m.t", "args", arr(), "options", obj("queue", "prune-q")));
        fetchOne("w", "prune-q");
        Api.ack(done).then().statusCode(200);
        String dead = enqueue(obj("type", "m.t", "args", arr(), "options",
                obj("queue", "prune-q", "retry", obj("max_attempts", 1, "on_exhaustion", "dead_letter"))));
        fetchOne("w", "prune-q");
        nack(dead, error("handler_error", "boom")).then().statusCode(200);

        pruner.runOnce(clock.instant().plus(Duration.ofDays(1))).await().indefinitely();
        info(done).then().statusCode(200);

        // A later instant, not a moved clock: the scheduled pruner would prune at a moved clock too, racing the count.
        int pruned = pruner.runOnce(clock.instant().plus(Duration.ofDays(8))).await().indefinitely();
        assertEquals(1, pruned);
        info(done).then().statusCode(404);
        assertEquals("discarded", jobView(dead).get("state"), "dead letters stay until an operator deletes them");
    }
}
