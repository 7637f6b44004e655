package dev.steadfast.queues;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Queue depth bounds (ojs-backpressure.md): 429 QUEUE_FULL with its headers, pressure, stats, configuration. */
@QuarkusTest
class BackpressureTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static void bound(String queue, Object backpressure) {
        send(obj("backpressure", backpressure)).put("/ojs/v1/admin/queues/" + queue + "/config").then().statusCode(200);
    }

    /** 429 with the envelope, code QUEUE_FULL, retryable (the producer should come back later). */
    private static void assertFull(Response r) {
        assertEquals(429, r.statusCode(), r::asString);
        assertEquals("QUEUE_FULL", path(r, "error.code"));
        assertEquals(Boolean.TRUE, path(r, "error.retryable"));
        assertEquals(r.header("X-Request-Id"), path(r, "error.request_id"));
    }

    private static Object job(String queue, int n) {
        return obj("type", "t.bp", "args", arr(n), "options", obj("queue", queue));
    }

    @Test
    void aFullQueueRefusesWith429AndSaysHowFull() {
        bound("bp-a", obj("max_depth", 2, "strategy", "reject"));
        push(job("bp-a", 1)).then().statusCode(201);
        push(job("bp-a", 2)).then().statusCode(201);
        Response r = push(job("bp-a", 3));
        assertFull(r);
        assertEquals("1", r.header("Retry-After"));
        assertEquals("2", r.header("X-OJS-Queue-Depth"));
        assertEquals("2", r.header("X-OJS-Queue-Bound"));
        push(job("bp-other", 1)).then().statusCode(201);
        request().get("/ojs/v1/queues/bp-a/stats").then().statusCode(200).body(at("stats.queue", equalTo("bp-a")))
                .body(at("stats.depth", equalTo(2))).body(at("stats.max_depth", equalTo(2)));
        assertEquals(1, Api.fetchIds("w", 1, "bp-a").size());
        push(job("bp-a", 4)).then().statusCode(201);
    }

    @Test
    void aBatchThatDoesNotFitIsRefusedWhole() {
        bound("bp-batch", obj("max_depth", 2));
        assertFull(send(obj("jobs", arr(job("bp-batch", 1), job("bp-batch", 2), job("bp-batch", 3))))
                .post("/ojs/v1/jobs/batch"));
        request().get("/ojs/v1/queues/bp-batch/stats").then().body(at("stats.depth", equalTo(0)));
        send(obj("jobs", arr(job("bp-batch", 1), job("bp-batch", 2)))).post("/ojs/v1/jobs/batch").then()
                .statusCode(201);
    }

    @Test
    void aWorkflowWhoseJobsDoNotFitIsRefusedWholeAndItsWaitingStepsCount() {
        bound("bp-wf", obj("max_depth", 3));
        Object chainOfFour = obj("type", "chain", "steps",
                arr(job("bp-wf", 1), job("bp-wf", 2), job("bp-wf", 3), job("bp-wf", 4)));
        Response r = send(chainOfFour).post("/ojs/v1/workflows");
        assertFull(r);
        assertEquals("3", r.header("X-OJS-Queue-Bound"));
        assertEquals("bp-wf", path(r, "error.details.queue"));
        request().get("/ojs/v1/queues/bp-wf/stats").then().body(at("stats.depth", equalTo(0)));
        request().get("/ojs/v1/admin/jobs/count?queue=bp-wf").then().statusCode(200)
                .body(at("counts.available", equalTo(0))).body(at("counts.pending", equalTo(0)));

        send(obj("type", "chain", "steps", arr(job("bp-wf", 1), job("bp-wf", 2), job("bp-wf", 3))))
                .post("/ojs/v1/workflows").then().statusCode(201);
        request().get("/ojs/v1/queues/bp-wf/stats").then().body(at("stats.depth", equalTo(3)));
        assertFull(send(obj("type", "group", "jobs", arr(job("bp-wf-free", 1), job("bp-wf", 2))))
                .post("/ojs/v1/workflows"));
        request().get("/ojs/v1/admin/jobs/count?queue=bp-wf-free").then().statusCode(200)
                .body(at("counts.available", equalTo(0)));
        send(obj("type", "group", "jobs", arr(job("bp-wf-free", 1)))).post("/ojs/v1/workflows").then()
                .statusCode(201);
    }

    @Test
    void aPartialBulkThatDoesNotFitIsRefusedWhole() {
        bound("bp-bulk", obj("max_depth", 1));
        assertFull(send(obj("jobs", arr(job("bp-bulk", 1), job("bp-bulk", 2)), "atomicity", "partial"))
                .post("/ojs/v1/jobs/bulk"));
        request().get("/ojs/v1/queues/bp-bulk/stats").then().body(at("stats.depth", equalTo(0)));
        send(obj("jobs", arr(job("bp-bulk", 1)))).post("/ojs/v1/jobs/bulk").then().statusCode(200);
    }

    @Test
    void pressureIsReportedPastTheWarningThresholdAndABoundCanBeRemoved() {
        bound("bp-warn", obj("max_depth", 10, "warning_threshold", 0.5));
        for (int i = 0; i < 4; i++) {
            assertNull(push(job("bp-warn", i)).then().statusCode(201).extract().header("X-OJS-Queue-Pressure"));
        }
        assertEquals("0.50", push(job("bp-warn", 5)).then().statusCode(201).extract().header("X-OJS-Queue-Pressure"));
        request().get("/ojs/v1/admin/queues/bp-warn/config").then().statusCode(200)
                .body(at("backpressure.max_depth", equalTo(10))).body(at("backpressure.strategy", equalTo("reject")));
        bound("bp-warn", null);
        request().get("/ojs/v1/admin/queues/bp-warn/config").then().body(at("backpressure", equalTo(null)));
    }

    @Test
    void badConfigurationsAreRefused() {
        String path = "/ojs/v1/admin/queues/bp-bad/config";
        assertError(send(obj("backpressure", obj("max_depth", 0))).put(path), 400, "invalid_request");
        assertError(send(obj("backpressure", obj("max_depth", 5, "strategy", "drop_oldest"))).put(path), 400,
                "invalid_request");
        assertError(send(obj("backpressure", obj("max_depth", 5, "warning_threshold", 2))).put(path), 400,
                "invalid_request");
        assertError(send(obj()).put(path), 400, "invalid_request");
        assertError(send(obj("backpressure", obj("max_depth", 5))).put("/ojs/v1/admin/queues/Bad Name/config"), 400,
                "invalid_request");
    }
}
