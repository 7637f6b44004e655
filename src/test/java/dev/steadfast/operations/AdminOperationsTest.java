package dev.steadfast.operations;

import dev.steadfast.testsupport.TestClock;
import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The seed systems' operator calls in the admin API: count by state per queue and delete completed jobs before a
 * cutoff (zzz_jobs), and the metrics summary with dead-letter growth and failure rate (Flare).
 */
@QuarkusTest
class AdminOperationsTest {

    @Inject
    TestClock clock;

    static final String COUNT = "/ojs/v1/admin/jobs/count";
    static final String COMPLETED = "/ojs/v1/admin/jobs/completed";
    static final String SUMMARY = "/ojs/v1/admin/metrics/summary";

    @BeforeEach
    void reset() {
        Api.reset();
    }

    /** In queue q: one available, one completed, one discarded, one dead letter. Returns the completed job's id. */
    private static String fourJobs(String q) {
        String done = enqueue("a.done", q);
        assertEquals(done, fetchOne("w", q));
        ack(done).then().statusCode(200);
        String discarded = enqueue(obj("type", "a.discard", "args", arr(), "options",
                obj("queue", q, "retry", obj("max_attempts", 1))));
        assertEquals(discarded, fetchOne("w", q));
        nack(discarded, error("E", "gone")).then().statusCode(200);
        String dead = enqueue(obj("type", "a.dead", "args", arr(), "options",
                obj("queue", q, "retry", obj("max_attempts", 1, "on_exhaustion", "dead_letter"))));
        assertEquals(dead, fetchOne("w", q));
        nack(dead, error("E", "dead")).then().statusCode(200);
        enqueue("a.waiting", q);
        return done;
    }

    @Test
    void countsJobsByStateInAQueueOrInAll() {
        fourJobs("count-a");
        enqueue("b.waiting", "count-b");
        request().get(COUNT + "?queue=count-a").then().statusCode(200)
                .body(at("queue", equalTo("count-a")))
                .body(at("counts.available", equalTo(1))).body(at("counts.completed", equalTo(1)))
                .body(at("counts.discarded", equalTo(2))).body(at("counts.active", equalTo(0)))
                .body(at("counts.scheduled", equalTo(0))).body(at("dead_letter", equalTo(1)));
        request().get(COUNT).then().statusCode(200).body(at("queue", nullValue()))
                .body(at("counts.available", equalTo(2))).body(at("dead_letter", equalTo(1)));
        request().get(COUNT + "?queue=nobody-here").then().statusCode(200).body(at("counts.available", equalTo(0)));
        assertEquals("queue", detailField(assertError(request().get(COUNT + "?queue=Bad%20Queue"), 400,
                "invalid_request")));
    }

    @Test
    void deletesCompletedJobsBeforeTheCutoffOnly() {
        String first = fourJobs("prune-a");
        String second = enqueue("a.done", "prune-b");
        assertEquals(second, fetchOne("w", "prune-b"));
        ack(second).then().statusCode(200);
        String secondDone = (String) jobView(second).get("completed_at");

        request().delete(COMPLETED + "?before=2000-01-01T00:00:00Z").then().statusCode(200)
                .body(at("deleted", equalTo(0)));
        request().delete(COMPLETED + "?before=" + secondDone).then().statusCode(200).body(at("deleted", equalTo(1)));
        Api.info(first).then().statusCode(404);
        assertEquals("completed", jobView(second).get("state"), "completed at the cutoff itself is kept");
        request().delete(COMPLETED + "?before=" + clock.instant().plusSeconds(3600)).then().statusCode(200)
                .body(at("deleted", equalTo(1)));
        request().get(COUNT).then().body(at("counts.completed", equalTo(0))).body(at("counts.discarded", equalTo(2)))
                .body(at("counts.available", equalTo(1)));
    }

    @Test
    void deleteCompletedRequiresAValidCutoff() {
        for (String bad : new String[] {"", "?before=", "?before=yesterday", "?before=2026-13-01T00:00:00Z"}) {
            Response r = request().delete(COMPLETED + bad);
            assertEquals("before", detailField(assertError(r, 400, "invalid_request")), bad);
        }
    }

    @Test
    void summaryCountsDeadLetterGrowthAndFailureRate() {
        fourJobs("sum-a");
        enqueue("b.waiting", "sum-b");
        request().get(SUMMARY).then().statusCode(200)
                .body(at("totals.available", equalTo(2))).body(at("totals.completed", equalTo(1)))
                .body(at("totals.discarded", equalTo(2)))
                .body(at("queues.sum-a.counts.completed", equalTo(1))).body(at("queues.sum-a.dead_letter", equalTo(1)))
                .body(at("queues.sum-b.counts.available", equalTo(1))).body(at("queues.sum-b.dead_letter", equalTo(0)))
                .body(at("dead_letter.total", equalTo(1))).body(at("dead_letter.added_last_hour", equalTo(1)))
                .body(at("dead_letter.added_last_day", equalTo(1)))
                .body(at("last_hour.completed", equalTo(1))).body(at("last_hour.failed", equalTo(2)))
                .body(at("last_hour.failure_rate", equalTo(2 / 3f)))
                .body(at("last_day.failed", equalTo(2)));
    }

    @Test
    void summaryOfAnEmptyServerHasNoFailureRate() {
        request().get(SUMMARY).then().statusCode(200).body(at("dead_letter.total", equalTo(0)))
                .body(at("last_hour.failure_rate", nullValue())).body(at("totals.active", equalTo(0)));
    }
}
