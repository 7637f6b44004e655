package dev.steadfast.queues;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Per-key rate limits over HTTP (ojs-rate-limiting.md): the PUSH options, FETCH within each key's limits and in
 * priority order, inspection, the PUSH's X-RateLimit-* headers, and refusals. Windows are long (a day) so no
 * assertion depends on timing; the window's arithmetic is RateLimitRuleTest's, the SQL's RateLimitStoreTest's.
 */
@QuarkusTest
class RateLimitKeysTest {

    @Inject
    TestClock clock;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static Map<String, Object> keyed(String type, String queue, Map<String, Object> rateLimit) {
        return obj("type", type, "args", arr(), "options", obj("queue", queue, "rate_limit", rateLimit));
    }

    @Test
    void concurrencyHoldsTheKeysOtherJobsAvailableUntilOneFinishes() {
        String first = enqueue(keyed("t.conc", "rk-conc", obj("key", "k-conc", "concurrency", 1)));
        String second = enqueue(keyed("t.conc", "rk-conc", obj("key", "k-conc", "concurrency", 1, "on_limit", "wait")));
        List<String> got = fetchIds("w", 2, "rk-conc");
        assertEquals(List.of(first), got);
        assertEquals(List.of(), fetchIds("w", 2, "rk-conc")); // held by its key: reported once

        request().get("/ojs/v1/admin/jobs/" + second).then().statusCode(200).body(at("state", equalTo("available")));
        request().get("/ojs/v1/rate-limits/k-conc").then().statusCode(200)
                .body(at("concurrency.limit", equalTo(1))).body(at("concurrency.active", equalTo(1)))
                .body(at("concurrency.available", equalTo(0))).body(at("waiting_count", equalTo(1)))
                .body(at("rate", nullValue())).body(at("throttle", nullValue()));
        request().get(Api.EVENTS + "?types=rate_limit.exceeded").then().statusCode(200)
                .body(at("events.subject", equalTo(List.of("k-conc"))))
                .body(at("events[0].data.strategy", equalTo("concurrency")))
                .body(at("events[0].data.limit", equalTo(1)))
                .body(at("events[0].data.current", equalTo(1)));
        assertEquals(List.of(), fetchIds("w", 2, "rk-conc"));
        request().get(Api.EVENTS + "?types=rate_limit.exceeded").then().body(at("events.size()", equalTo(1)));
        ack(first).then().statusCode(200);
        assertEquals(List.of(second), fetchIds("w", 2, "rk-conc"));
        request().get(Api.EVENTS + "?types=rate_limit.released").then().statusCode(200)
                .body(at("events.data.job_id", equalTo(List.of(second))))
                .body(at("events[0].data.key", equalTo("k-conc")));
    }

    @Test
    void keysAreIndependentAndJobsWithoutAKeyAreNotHeldBack() {
        String a1 = enqueue(keyed("t.keys", "rk-keys", obj("key", "k-a", "concurrency", 1)));
        enqueue(keyed("t.keys", "rk-keys", obj("key", "k-a", "concurrency", 1)));
        String b1 = enqueue(keyed("t.keys", "rk-keys", obj("key", "k-b", "concurrency", 1)));
        String plain = enqueue("t.keys", "rk-keys");
        List<String> got = fetchIds("w", 10, "rk-keys");
        assertEquals(3, got.size(), got.toString());
        assertTrue(got.containsAll(List.of(a1, b1, plain)), got.toString());
    }

    @Test
    void aLimitedKeyDoesNotBypassPriorityNorBlockTheNextJob() {
        enqueue(keyed("t.prio", "rk-prio", obj("key", "k-prio", "concurrency", 0)));
        String low = enqueue(obj("type", "t.prio", "args", arr(), "options", obj("queue", "rk-prio", "priority", -5)));
        // the stopped key's job is skipped and the next eligible one assigned (8.1)
        assertEquals(List.of(low), fetchIds("w", 1, "rk-prio"));
        String high = enqueue(keyed("t.prio", "rk-prio2", obj("key", "k-open", "concurrency", 5)));
        String lower = enqueue(obj("type", "t.prio", "args", arr(), "options", obj("queue", "rk-prio2", "priority", -1)));
        // an allowed keyed job keeps its place in priority order among jobs without a key (8.2)
        assertEquals(List.of(high), fetchIds("w", 1, "rk-prio2"));
        assertEquals(List.of(lower), fetchIds("w", 1, "rk-prio2"));
    }

    @Test
    void aRateWindowLetsItsLimitStartAndTheNumericShapeIsRead() {
        for (int i = 0; i < 3; i++) {
            Response r = push(keyed("t.rate", "rk-rate", obj("key", "k-rate", "rate", 2, "period", "day")));
            r.then().statusCode(201).header("X-RateLimit-Limit", "2");
        }
        assertEquals(2, fetchIds("w", 10, "rk-rate").size());
        assertEquals(0, fetchIds("w", 10, "rk-rate").size());
        request().get("/ojs/v1/rate-limits/k-rate").then().statusCode(200)
                .body(at("rate.limit", equalTo(2))).body(at("rate.period", equalTo("PT24H")))
                .body(at("rate.current_count", equalTo(2))).body(at("rate.window_resets_at", notNullValue()))
                .body(at("waiting_count", equalTo(1)));
        Response r = push(keyed("t.rate", "rk-rate", obj("key", "k-rate", "rate", obj("limit", 2, "period", "P1D"))));
        r.then().statusCode(201).header("X-RateLimit-Limit", "2").header("X-RateLimit-Remaining", "0");
        long reset = Long.parseLong(r.header("X-RateLimit-Reset"));
        assertTrue(reset > clock.instant().getEpochSecond() + 86_000, "the window frees a day after the starts");
    }

    @Test
    void aThrottleStartsOneJobPerFetchAtMost() {
        for (int i = 0; i < 3; i++) {
            enqueue(keyed("t.thr", "rk-thr", obj("key", "k-thr", "throttle", obj("limit", 1, "period", "P1D"))));
        }
        assertEquals(1, fetchIds("w", 10, "rk-thr").size());
        assertEquals(0, fetchIds("w", 10, "rk-thr").size());
        request().get("/ojs/v1/rate-limits/k-thr").then().statusCode(200)
                .body(at("throttle.limit", equalTo(1))).body(at("throttle.period", equalTo("PT24H")))
                .body(at("throttle.next_allowed_at", notNullValue()));
    }

    @Test
    void aKeyInsideALimitedQueueObeysBothLimits() {
        send(obj("concurrency", 3)).put("/ojs/v1/admin/queues/rk-both/rate-limit").then().statusCode(200);
        for (int i = 0; i < 3; i++) {
            enqueue(keyed("t.both", "rk-both", obj("key", "k-both", "concurrency", 1)));
            enqueue("t.both", "rk-both");
        }
        List<String> got = fetchIds("w", 10, "rk-both");
        assertEquals(3, got.size(), "the queue allows 3, the key 1 of them: " + got);
        request().get("/ojs/v1/rate-limits/k-both").then().body(at("concurrency.active", equalTo(1)));
    }

    @Test
    void batchAndBulkPushesCarryKeysToo() {
        send(obj("jobs", arr(keyed("t.batch", "rk-batch", obj("key", "k-batch", "concurrency", 1)),
                keyed("t.batch", "rk-batch", obj("key", "k-batch", "concurrency", 1)))))
                .post("/ojs/v1/jobs/batch").then().statusCode(201);
        send(obj("jobs", arr(keyed("t.batch", "rk-batch", obj("key", "k-batch", "concurrency", 1)))))
                .post("/ojs/v1/jobs/bulk").then().statusCode(200);
        assertEquals(1, fetchIds("w", 10, "rk-batch").size());
        request().get("/ojs/v1/rate-limits/k-batch").then().body(at("waiting_count", equalTo(2)));
    }

    @Test
    void theNewestPushSetsTheKeysLimits() {
        enqueue(keyed("t.newest", "rk-new", obj("key", "k-new", "concurrency", 1)));
        enqueue(keyed("t.newest", "rk-new", obj("key", "k-new", "concurrency", 2)));
        assertEquals(2, fetchIds("w", 10, "rk-new").size());
        request().get("/ojs/v1/rate-limits/k-new").then().body(at("concurrency.limit", equalTo(2)));
    }

    @Test
    void inspectionAnswers404ForAnUnknownKeyAnd400ForAnImpossibleOne() {
        assertError(request().get("/ojs/v1/rate-limits/nobody-named-me"), 404, "not_found");
        Map<String, Object> e = assertError(request().get("/ojs/v1/rate-limits/-dash"), 400, "invalid_request");
        assertEquals("key", detailField(e));
    }

    @Test
    void badPoliciesAreRefusedNamingTheField() {
        refused(obj("concurrency", 1), 400, "options.rate_limit.key");
        refused(obj("key", "has space", "concurrency", 1), 400, "options.rate_limit.key");
        refused(obj("key", "k", "concurrency", -1), 400, "options.rate_limit.concurrency");
        refused(obj("key", "k", "rate", obj("limit", 5)), 400, "options.rate_limit.rate.period");
        refused(obj("key", "k", "rate", obj("limit", 5, "period", "soon")), 400, "options.rate_limit.rate.period");
        refused(obj("key", "k", "rate", obj("limit", 5, "period", "P2D")), 400, "options.rate_limit.rate.period");
        refused(obj("key", "k", "throttle", obj("limit", -2, "period", "PT1S")), 400, "options.rate_limit.throttle.limit");
        refused(obj("key", "k", "rate", 1), 400, "options.rate_limit.period");
        refused(obj("key", "k", "burst", 3), 400, "options.rate_limit.burst");
        refused(obj("key", "k", "on_limit", "later"), 400, "options.rate_limit.on_limit");
        refused(obj("key", "k", "on_limit", "drop"), 422, "options.rate_limit.on_limit");
        Map<String, Object> wf = assertError(send(obj("type", "chain", "name", "wf", "steps",
                arr(keyed("t.step", "rk-wf", obj("key", "k", "concurrency", 1))))).post("/ojs/v1/workflows"),
                422, "unsupported");
        assertTrue(String.valueOf(wf).contains("rate_limit"), wf.toString());
        Map<String, Object> cron = assertError(send(obj("name", "rk-cron", "cron", "* * * * *", "job_template",
                keyed("t.cron", "rk-cron", obj("key", "k", "concurrency", 1)))).post("/ojs/v1/cron"), 422, "unsupported");
        assertEquals("job_template.options.rate_limit", detailField(cron));
        request().get("/ojs/v1/rate-limits/k").then().statusCode(404); // nothing refused left a partition behind
    }

    private static void refused(Map<String, Object> rateLimit, int status, String field) {
        Map<String, Object> e = assertError(push(keyed("t.bad", "rk-bad", rateLimit)), status,
                status == 422 ? "unsupported" : "invalid_request");
        assertEquals(field, detailField(e), e.toString());
    }
}
