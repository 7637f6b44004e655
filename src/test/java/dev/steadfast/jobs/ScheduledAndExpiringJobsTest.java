package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import dev.steadfast.work.ExpiryReaper;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** scheduled_at as a relative offset, delay, and expires_at enforced (never delivered, discarded with a reason). */
@QuarkusTest
class ScheduledAndExpiringJobsTest {

    @Inject
    TestClock clock;

    @Inject
    ExpiryReaper reaper;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void relativeScheduledAtAndDelayScheduleFromNow() {
        Instant before = clock.instant();
        String a = enqueue(obj("type", "d.t", "args", arr(), "options", obj("queue", "dq", "scheduled_at", "+PT1H")));
        String b = enqueue(obj("type", "d.t", "args", arr(), "options", obj("queue", "dq", "delay", "PT2H")));
        String c = enqueue(obj("type", "d.t", "args", arr(), "options", obj("queue", "dq", "delay_ms", 3_600_000)));
        Instant after = clock.instant();
        for (Object[] x : new Object[][] {{a, Duration.ofHours(1)}, {b, Duration.ofHours(2)}, {c, Duration.ofHours(1)}}) {
            Map<String, Object> j = jobView((String) x[0]);
            assertEquals("scheduled", j.get("state"));
            Instant at = Instant.parse((String) j.get("scheduled_at"));
            Duration d = (Duration) x[1];
            assertFalse(at.isBefore(before.plus(d).minusMillis(1)), at + " vs " + before);
            assertFalse(at.isAfter(after.plus(d).plusMillis(1)), at + " vs " + after);
        }
        assertEquals(List.of(), Api.fetchIds("w", 5, "dq"));
        for (String bad : new String[] {"+5S", "+", "+PTxS", "-PT5S"}) {
            Map<String, Object> e = assertError(push(obj("type", "d.t", "args", arr(), "options",
                    obj("scheduled_at", bad))), 400, "invalid_request");
            assertEquals("options.scheduled_at", detailField(e), bad);
        }
        assertEquals("options.delay", detailField(assertError(push(obj("type", "d.t", "args", arr(), "options",
                obj("delay", "soon"))), 400, "invalid_request")));
    }

    @Test
    void anExpiredJobIsNeverDeliveredAndIsDiscardedWithItsReason() {
        String past = clock.instant().minusSeconds(1).toString();
        String id = enqueue(obj("type", "x.t", "args", arr(), "options", obj("queue", "xq", "expires_at", past)));
        String keep = enqueue(obj("type", "x.t", "args", arr(), "options", obj("queue", "xq", "expires_at", "+PT1H")));
        assertEquals(List.of(keep), Api.fetchIds("w", 5, "xq"), "the claim passes over the expired job");
        reaper.runOnce(clock.instant()).await().indefinitely();
        Map<String, Object> j = jobView(id);
        assertEquals("discarded", j.get("state"));
        assertTrue(j.get("discarded_at") != null);
        assertFalse(j.containsKey("completed_at"), "it never ran");
        Map<?, ?> error = (Map<?, ?>) j.get("error");
        assertEquals("expired", error.get("code"));
        assertTrue(((String) error.get("message")).startsWith("Expired"));
        assertEquals(1, ((List<?>) j.get("errors")).size());
        assertEquals("active", jobView(keep).get("state"));
    }

    @Test
    void scheduledAndRetryingJobsExpireToo() {
        String sched = enqueue(obj("type", "x.t", "args", arr(), "options", obj("queue", "xq2", "scheduled_at",
                "+PT2H", "expires_at", "+PT1H")));
        String waiting = enqueue(obj("type", "x.t", "args", arr(), "options", obj("queue", "xq2",
                "expires_at", "+PT3H")));
        reaper.runOnce(clock.advance(Duration.ofMinutes(61))).await().indefinitely();
        assertEquals("discarded", jobView(sched).get("state"));
        assertEquals("available", jobView(waiting).get("state"));
    }
}
