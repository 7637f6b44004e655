package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.Api.state;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Values PostgreSQL cannot store (a NUL in any string or key) and numbers past their range are refused with 400
 * naming the field, before anything reaches the database, and change nothing.
 */
@QuarkusTest
class StorableInputTest {

    static final String NUL = "a\u0000b";

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static void assertRefused(io.restassured.response.Response r, String field) {
        Map<String, Object> e = assertError(r, 400, "invalid_request");
        assertEquals(field, ((Map<?, ?>) e.get("details")).get("field"), r.asString());
    }

    @Test
    void aNulAnywhereInAPushIsRefusedNamingItsPath() {
        assertRefused(Api.push(obj("type", "nul.t", "args", arr("ok", obj("k", NUL)))), "args[1].k");
        assertRefused(Api.push(obj("type", "nul.t", "args", arr(), "meta", obj(NUL, 1))), "meta.a\\u0000b");
        assertRefused(Api.push(obj("type", "nul.t", "args", arr(), "options", obj("tags", arr("x", NUL)))),
                "options.tags[1]");
        assertRefused(Api.push(obj("type", NUL, "args", arr())), "type");
        assertRefused(send(obj("jobs", arr(obj("type", "ok.t", "args", arr()), obj("type", "nul.t", "args",
                arr(NUL))))).post("/ojs/v1/jobs/batch"), "jobs[1].args[0]");
        assertEquals(0, request().get("/ojs/v1/queues").then().statusCode(200).extract().jsonPath()
                .getList("queues").size(), "nothing was enqueued");
    }

    @Test
    void aNulInAWorkerRequestChangesNothing() {
        String id = enqueue("nul.w", "nul-q");
        assertEquals(id, fetchOne("w1", "nul-q"));
        String lease = (String) jobView(id).get("lease_expires_at");
        assertRefused(send(obj("job_id", id, "worker_id", "w1", "result", obj("r", NUL))).post(Api.ACK), "result.r");
        assertRefused(send(obj("job_id", id, "worker_id", "w1", "error", obj("message", NUL))).post(Api.NACK),
                "error.message");
        assertRefused(send(obj("worker_id", "w1", "hostname", NUL)).post("/ojs/v1/workers/heartbeat"), "hostname");
        assertRefused(send(obj("worker_id", "w1", "queues", arr(NUL))).post("/ojs/v1/workers/heartbeat"),
                "queues[0]");
        assertRefused(send(obj("worker_id", NUL, "queues", arr("nul-q"))).post(Api.FETCH), "worker_id");
        assertRefused(send(obj("filter", obj("queue", NUL), "confirm", true)).post("/ojs/v1/dead-letter/retry"),
                "filter.queue");
        assertEquals("active", state(id));
        assertEquals(lease, jobView(id).get("lease_expires_at"), "no lease was extended");
    }

    @Test
    void numbersPastTheirRangeAre400NamingTheField() {
        assertRefused(send("{\"type\":\"a.b\",\"args\":[],\"timeout\":9223372036854775807}").post(Api.JOBS), "timeout");
        assertRefused(send("{\"type\":\"a.b\",\"args\":[],\"timeout\":-9223372036854775808}").post(Api.JOBS), "timeout");
        assertRefused(send("{\"type\":\"a.b\",\"args\":[],\"scheduled_at\":\"+999999999-12-31T23:59:59Z\"}")
                .post(Api.JOBS), "scheduled_at");
        assertRefused(send("{\"queues\":[\"q\"],\"count\":99999999999999999999}").post(Api.FETCH), "count");
    }

    @Test
    void aJobTypeFilterSkipsQueueEvents() {
        request().post("/ojs/v1/queues/evq/pause").then().statusCode(200);
        enqueue("ev.type", "evq");
        List<Object> events = request().get(Api.EVENTS + "?job_types=ev.type").then().statusCode(200).extract()
                .jsonPath().getList("events");
        assertEquals(1, events.size());
    }
}
