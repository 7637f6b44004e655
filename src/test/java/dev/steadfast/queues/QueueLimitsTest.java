package dev.steadfast.queues;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.json;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.testsupport.Api;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Queue rate and concurrency limits (ojs-rate-limiting.md 7.2) against PostgreSQL. Windows are long (a day) so no
 * assertion depends on timing; the sliding window's arithmetic is AllowanceTest's.
 */
@QuarkusTest
class QueueLimitsTest {

    @TestHTTPResource("/ojs/v1/workers/fetch")
    URI fetchUri;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static void limit(String queue, Map<String, Object> body) {
        send(body).put("/ojs/v1/admin/queues/" + queue + "/rate-limit").then().statusCode(200);
    }

    @Test
    void aRateLetsAtMostLimitJobsStartInItsWindow() {
        for (int i = 0; i < 5; i++) {
            enqueue("t.rl", "rl-q");
        }
        limit("rl-q", obj("rate", obj("limit", 2, "period", "P1D")));
        request().get("/ojs/v1/admin/queues/rl-q/rate-limit").then().statusCode(200)
                .body(at("rate.limit", equalTo(2))).body(at("rate.period", equalTo("PT24H")))
                .body(at("concurrency", nullValue()));
        assertEquals(2, fetchIds("w", 10, "rl-q").size());
        assertEquals(0, fetchIds("w", 10, "rl-q").size());
        request().delete("/ojs/v1/admin/queues/rl-q/rate-limit").then().statusCode(200).body(at("rate", nullValue()));
        assertEquals(3, fetchIds("w", 10, "rl-q").size());
    }

    @Test
    void theBindingsMaxPerSecondOptionLimitsTheJobsQueue() {
        Map<String, Object> body = obj("type", "t.mps", "args", arr(), "options",
                obj("queue", "mps-q", "rate_limit", obj("max_per_second", 1)));
        enqueue(body);
        enqueue(body);
        request().get("/ojs/v1/admin/queues/mps-q/rate-limit").then().body(at("rate.limit", equalTo(1)))
                .body(at("rate.period", equalTo("PT1S")));
        assertEquals(1, fetchIds("w", 10, "mps-q").size());
        Map<String, Object> e = assertError(push(obj("type", "t.mps", "args", arr(), "options",
                obj("queue", "mps-q", "rate_limit", obj("max_per_second", 0)))), 400, "invalid_request");
        assertEquals("options.rate_limit.max_per_second", detailField(e));
    }

    @Test
    void concurrencyCountsActiveJobsAndFreesASlotOnAck() {
        for (int i = 0; i < 4; i++) {
            enqueue("t.c", "cc-q");
        }
        enqueue("t.c", "free-q");
        limit("cc-q", obj("concurrency", 1));
        List<String> got = fetchIds("w", 10, "cc-q", "free-q");
        assertEquals(2, got.size(), "one from the limited queue, then the next queue in order");
        assertEquals(0, fetchIds("w", 10, "cc-q").size());
        Api.ack(got.get(0)).then().statusCode(200);
        assertEquals(1, fetchIds("w", 10, "cc-q").size());
    }

    @Test
    void badLimitsAnswerTheEnvelope() {
        assertError(send(obj("rate", obj("limit", 5))).put("/ojs/v1/admin/queues/x-q/rate-limit"), 400,
                "invalid_request");
        assertError(send(obj("rate", obj("limit", 5, "period", "soon"))).put("/ojs/v1/admin/queues/x-q/rate-limit"),
                400, "invalid_request");
        assertError(send(obj("concurrency", -1)).put("/ojs/v1/admin/queues/x-q/rate-limit"), 400, "invalid_request");
        assertError(send(obj("concurrency", 1)).put("/ojs/v1/admin/queues/Bad_Q/rate-limit"), 400, "invalid_request");
        assertError(request().get("/ojs/v1/admin/queues/never-q/rate-limit"), 404, "not_found");
    }

    /** 16 workers fetch a queue limited to 3 active jobs at once: exactly 3 jobs are handed out in all. */
    @Test
    void parallelFetchesNeverExceedTheConcurrencyLimit() throws Exception {
        for (int i = 0; i < 40; i++) {
            enqueue("t.pc", "pc-q");
        }
        limit("pc-q", obj("concurrency", 3));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        ObjectMapper m = new ObjectMapper();
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> got = new ArrayList<>();
            for (int w = 0; w < 16; w++) {
                String body = json(obj("queues", arr("pc-q"), "count", 2, "worker_id", "w" + w));
                got.add(pool.submit(() -> {
                    start.await();
                    HttpRequest req = HttpRequest.newBuilder(fetchUri).header("Content-Type", Api.OJS_JSON)
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                    return m.readTree(http.send(req, HttpResponse.BodyHandlers.ofString()).body()).at("/jobs").size();
                }));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> f : got) {
                total += f.get(60, TimeUnit.SECONDS);
            }
            assertEquals(3, total);
            request().get("/ojs/v1/queues/pc-q/stats").then().body(at("queue.active", equalTo(3)));
        } finally {
            pool.shutdownNow();
        }
    }
}
