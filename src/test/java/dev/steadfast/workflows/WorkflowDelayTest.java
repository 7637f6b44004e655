package dev.steadfast.workflows;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.JsonPaths.path;
import static dev.steadfast.workflows.WorkflowApiTest.create;
import static dev.steadfast.workflows.WorkflowApiTest.get;
import static dev.steadfast.workflows.WorkflowApiTest.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A waiting member's delay (a chain step after the first, a batch callback) counts from when the workflow enqueues
 * it, and an absolute scheduled_at is kept when it is later: the member becomes scheduled, and the claim takes it
 * once due. Time passes by moving the server's clock (testsupport.TestClock), never by sleeping.
 */
@QuarkusTest
class WorkflowDelayTest {

    @Inject
    TestClock clock;

    /** Tolerance for the time that passes between reading the clock and the server's own reading. */
    private static final Duration SKEW = Duration.ofSeconds(2);

    @Inject
    Pool pool;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private Row row(String id) {
        return pool.preparedQuery("SELECT state, run_at, scheduled_at FROM jobs WHERE id = $1")
                .execute(Tuple.of(UUID.fromString(id))).await().indefinitely().iterator().next();
    }

    private static Instant at(Row r, String column) {
        return r.getOffsetDateTime(column).toInstant();
    }

    private static void near(Instant expected, Instant actual) {
        assertTrue(Duration.between(expected, actual).abs().compareTo(SKEW) <= 0, expected + " vs " + actual);
    }

    @Test
    void aChainStepsDelayCountsFromItsActivationAndALaterScheduledAtWins() {
        Instant absolute = clock.instant().plus(5, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        Response r = create(obj("type", "chain", "steps", arr(job("d.zero", "wf-d"), job("d.one", "wf-d", "delay", "PT1H"),
                job("d.two", "wf-d", "delay_ms", 600_000, "scheduled_at", absolute.toString()))));
        assertEquals(201, r.statusCode(), r::asString);
        String wf = path(r, "workflow.id");
        List<String> ids = path(r, "workflow.steps.job_id");
        assertEquals("pending", state(ids.get(1)), "a delayed step still waits for the one before");
        // Two hours after the workflow was created: counted from its creation, step 1's hour would be over.
        clock.advance(Duration.ofHours(2));

        assertEquals(ids.get(0), fetchOne("w", "wf-d"));
        Instant acked = clock.instant();
        ack(ids.get(0), "w", obj("n", 0)).then().statusCode(200);
        Row one = row(ids.get(1));
        assertEquals("scheduled", one.getString("state"));
        near(acked.plus(Duration.ofHours(1)), at(one, "run_at"));
        assertTrue(fetchIds("w", 5, "wf-d").isEmpty(), "not claimable before it is due");
        assertEquals("running", path(get(wf), "workflow.state"));

        clock.advance(Duration.ofHours(1));
        assertEquals(List.of(ids.get(1)), Api.fetchIdsSoon("w", 1, "wf-d"), "the claim takes it once due");
        ack(ids.get(1), "w", obj("n", 1)).then().statusCode(200);
        Row two = row(ids.get(2));
        assertEquals("scheduled", two.getString("state"));
        assertEquals(absolute, at(two, "run_at"), "its scheduled_at is later than now + 10 minutes");
        assertTrue(fetchIds("w", 5, "wf-d").isEmpty(), "not claimable before its scheduled_at");

        clock.set(absolute);
        assertEquals(List.of(ids.get(2)), Api.fetchIdsSoon("w", 1, "wf-d"));
        ack(ids.get(2), "w", obj("n", 2)).then().statusCode(200);
        assertEquals("completed", path(get(wf), "workflow.state"));
    }

    @Test
    void aStepWithoutADelayButAPastScheduledAtIsEnqueuedAtOnce() {
        String past = clock.instant().minus(1, ChronoUnit.HOURS).toString();
        Response r = create(obj("type", "chain", "steps", arr(job("p.zero", "wf-p"),
                job("p.one", "wf-p", "scheduled_at", past))));
        List<String> ids = path(r, "workflow.steps.job_id");
        assertEquals(ids.get(0), fetchOne("w", "wf-p"));
        ack(ids.get(0), "w", obj()).then().statusCode(200);
        assertEquals("available", state(ids.get(1)));
        assertEquals(ids.get(1), fetchOne("w", "wf-p"));
    }

    @Test
    void aBatchCallbacksDelayIsAppliedAndCancellingTheBatchCancelsTheScheduledCallback() {
        Response r = create(obj("type", "batch", "jobs", arr(job("b.a", "wf-bd")), "callbacks",
                obj("on_complete", job("b.done", "wf-bd", "delay_ms", 90_000),
                        "on_success", job("b.ok", "wf-bd"))));
        assertEquals(201, r.statusCode(), r::asString);
        String wf = path(r, "workflow.id");
        String a = path(r, "workflow.jobs[0].job_id");
        String onComplete = path(r, "workflow.callbacks.on_complete.job_id");
        String onSuccess = path(r, "workflow.callbacks.on_success.job_id");
        assertEquals(a, fetchOne("w", "wf-bd"));
        Instant acked = clock.instant();
        ack(a, "w", obj()).then().statusCode(200);
        Row cb = row(onComplete);
        assertEquals("scheduled", cb.getString("state"));
        near(acked.plus(Duration.ofSeconds(90)), at(cb, "run_at"));
        assertEquals("available", state(onSuccess), "a callback without a delay runs at once");
        assertEquals(List.of(onSuccess), fetchIds("w", 5, "wf-bd"));

        Api.request().delete(WorkflowApiTest.WORKFLOWS + "/" + wf).then().statusCode(200);
        assertEquals("cancelled", state(onComplete), "a scheduled callback has not started: cancelled");
    }

    @Test
    void aBadDelayOnAMemberGetsTheErrorEnvelope() {
        assertError(create(obj("type", "chain", "steps", arr(job("x", "wf-bad"),
                job("y", "wf-bad", "delay", "soon")))), 400, "invalid_request");
        assertError(create(obj("type", "chain", "steps", arr(job("x", "wf-bad"),
                job("y", "wf-bad", "delay_ms", -5)))), 400, "invalid_request");
    }
}
