package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.job;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Bulk enqueue (ojs-bulk-operations.md 5): partial and atomic modes, per-item results, the size limit. */
@QuarkusTest
class BulkEnqueueTest {

    static final String BULK = "/ojs/v1/jobs/bulk";

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void partialModeCreatesTheGoodJobsAndReportsEachItem() {
        Map<String, Object> bad = obj("args", arr(), "options", obj("queue", "bk-p"));
        send(obj("jobs", arr(job("t.a", "bk-p"), bad, job("t.b", "bk-p")))).post(BULK).then().statusCode(207)
                .body(at("total", equalTo(3))).body(at("succeeded", equalTo(2))).body(at("failed", equalTo(1)))
                .body(at("items[0].status", equalTo("created"))).body(at("items[0].index", equalTo(0)))
                .body(at("items[1].status", equalTo("failed")))
                .body(at("items[1].error.code", equalTo("invalid_request")))
                .body(at("items[1].error.details.index", equalTo(1)))
                .body(at("items[2].job.type", equalTo("t.b")));
        assertEquals(2, Api.fetchIds("w", 10, "bk-p").size());
    }

    @Test
    void partialModeAnswers200WhenAllSucceedAnd422WhenAllFail() {
        send(obj("jobs", arr(job("t.a", "bk-ok")))).post(BULK).then().statusCode(200).body(at("failed", equalTo(0)));
        send(obj("jobs", arr(obj("type", "t.x")))).post(BULK).then().statusCode(422).body(at("succeeded", equalTo(0)));
    }

    @Test
    void partialModeReportsUniqueConflictsPerItem() {
        Map<String, Object> u = obj("keys", arr("type"), "on_conflict", "reject");
        Map<String, Object> j = obj("type", "t.u", "args", arr(), "options", obj("queue", "bk-u", "unique", u));
        send(obj("jobs", arr(j, j, job("t.other", "bk-u")))).post(BULK).then().statusCode(207)
                .body(at("items[1].status", equalTo("failed"))).body(at("items[1].error.code", equalTo("duplicate")));
        Map<String, Object> ig = obj("type", "t.i", "args", arr(), "options", obj("queue", "bk-u",
                "unique", obj("on_conflict", "ignore")));
        send(obj("jobs", arr(ig, ig))).post(BULK).then().statusCode(200)
                .body(at("items[1].status", equalTo("duplicate")));
    }

    @Test
    void atomicModeCreatesNothingWhenOneJobIsBad() {
        Map<String, Object> e = assertError(send(obj("atomicity", "atomic", "jobs",
                arr(job("t.a", "bk-a"), obj("type", "t.b", "args", "no")))).post(BULK), 400, "invalid_request");
        assertEquals(1, ((Map<?, ?>) e.get("details")).get("index"));
        assertEquals(0, Api.fetchIds("w", 10, "bk-a").size());
        send(obj("atomicity", "atomic", "jobs", arr(job("t.a", "bk-a"), job("t.b", "bk-a")))).post(BULK).then()
                .statusCode(200).body(at("succeeded", equalTo(2)));
    }

    @Test
    void tooManyJobsAnswer413AndBadShapesTheEnvelope() {
        List<Object> many = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            many.add(job("t.m", "bk-m"));
        }
        Map<String, Object> e = assertError(send(obj("jobs", many)).post(BULK), 413, "payload_too_large");
        assertEquals(1000, ((Map<?, ?>) e.get("details")).get("max_batch_size"));
        assertError(send(obj("jobs", arr())).post(BULK), 400, "invalid_request");
        assertError(send(obj("jobs", arr(job("t.a", "bk-m")), "atomicity", "most")).post(BULK), 400,
                "invalid_request");
        assertError(send(obj("jobs", "x")).post(BULK), 400, "invalid_request");
        assertError(send(obj("jobs", arr(job("t.a", "bk-m")), "idempotency_key", "k1")).post(BULK), 422,
                "unsupported");
        assertEquals(0, Api.fetchIds("w", 10, "bk-m").size());
    }
}
