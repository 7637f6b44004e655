package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.job;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JsonPaths;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * W3C trace context (ojs-observability.md 5.1): a producer's traceparent and tracestate headers reach the meta of
 * the jobs its request creates, unless the job's own meta names a traceparent; an invalid header is ignored.
 */
@QuarkusTest
class TracePropagationTest {

    static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    static final String STATE = "ojs=p:8;r:62";
    static final String CLIENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static RequestSpecification traced(Object body, String parent, String state) {
        RequestSpecification r = send(body).header("traceparent", parent);
        return state == null ? r : r.header("tracestate", state);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> meta(String id) {
        return (Map<String, Object>) Api.jobView(id).get("meta");
    }

    @Test
    void pushStoresTheHeadersInMetaAndFetchHandsThemOn() {
        Response r = traced(job("t.traced", "tr-push"), PARENT, STATE).post(Api.JOBS);
        assertEquals(201, r.statusCode(), r::asString);
        String id = path(r, "job.id");
        assertEquals(PARENT, path(r, "job.meta.traceparent"));
        assertEquals(Map.of("traceparent", PARENT, "tracestate", STATE), meta(id));
        Response fetched = Api.fetch("w", 1, "tr-push");
        assertEquals(List.of(id), path(fetched, "jobs.id"));
        assertEquals(PARENT, path(fetched, "jobs[0].meta.traceparent"));
        assertEquals(STATE, path(fetched, "jobs[0].meta.tracestate"));
    }

    @Test
    void theClientsMetaTraceparentWins() {
        Object body = obj("type", "t.own", "args", arr(), "meta", obj("traceparent", CLIENT, "tenant", "a"),
                "options", obj("queue", "tr-own"));
        String id = path(traced(body, PARENT, STATE).post(Api.JOBS).then().statusCode(201).extract(), "job.id");
        assertEquals(Map.of("traceparent", CLIENT, "tenant", "a"), meta(id), "meta untouched, no header tracestate");
    }

    @Test
    void anInvalidHeaderIsIgnoredNotAnError() {
        String allZero = "00-00000000000000000000000000000000-00f067aa0ba902b7-01";
        for (String bad : new String[] {"nonsense", allZero, PARENT.toUpperCase()}) {
            String id = path(traced(job("t.bad", "tr-bad"), bad, STATE).post(Api.JOBS).then().statusCode(201)
                    .extract(), "job.id");
            assertFalse(meta(id).containsKey("traceparent"), bad);
            assertFalse(meta(id).containsKey("tracestate"), "a tracestate without a valid traceparent is dropped");
        }
        String id = path(traced(job("t.badstate", "tr-bad"), PARENT, "no-equals-sign").post(Api.JOBS).then()
                .statusCode(201).extract(), "job.id");
        assertEquals(Map.of("traceparent", PARENT), meta(id), "an invalid tracestate alone is dropped");
    }

    @Test
    void withoutHeadersMetaStaysAsSent() {
        String id = Api.enqueue(job("t.plain", "tr-plain"));
        assertEquals(Map.of(), meta(id));
    }

    @Test
    void everyJobOfABatchAndOfABulkRequestCarriesTheContext() {
        Response batch = traced(obj("jobs", arr(job("t.b1", "tr-batch"), job("t.b2", "tr-batch"))), PARENT, null)
                .post("/ojs/v1/jobs/batch");
        assertEquals(201, batch.statusCode(), batch::asString);
        for (String id : JsonPaths.<List<String>>path(batch, "jobs.id")) {
            assertEquals(Map.of("traceparent", PARENT), meta(id));
        }
        Map<String, Object> unique = obj("type", "t.u", "args", arr(), "options",
                obj("queue", "tr-bulk", "unique", obj("keys", arr("type"))));
        Response bulk = traced(obj("jobs", arr(job("t.k1", "tr-bulk"), unique)), PARENT, STATE)
                .post("/ojs/v1/jobs/bulk");
        assertEquals(200, bulk.statusCode(), bulk::asString);
        for (String id : JsonPaths.<List<String>>path(bulk, "items.job.id")) {
            assertEquals(Map.of("traceparent", PARENT, "tracestate", STATE), meta(id));
        }
    }

    @Test
    void everyMemberOfAWorkflowCarriesTheSameContext() {
        Object wf = obj("type", "chain", "name", "traced", "steps",
                arr(job("w.one", "tr-wf"), job("w.two", "tr-wf")));
        Response r = traced(wf, PARENT, STATE).post("/ojs/v1/workflows");
        assertEquals(201, r.statusCode(), r::asString);
        List<String> ids = path(Api.request().get("/ojs/v1/workflows/" + path(r, "workflow.id")), "workflow.steps.job_id");
        assertEquals(2, ids.size());
        for (String id : ids) {
            assertEquals(Map.of("traceparent", PARENT, "tracestate", STATE), meta(id));
        }
    }

    @Test
    void aCronTemplateTakesNothingFromTheRegisteringRequest() {
        Object cron = obj("name", "tr-cron", "cron", "0 * * * *", "job_template", job("t.cron", "tr-cron"));
        Response r = traced(cron, PARENT, STATE).post("/ojs/v1/cron");
        assertEquals(201, r.statusCode(), r::asString);
        assertNull(path(r, "cron.job_template.meta.traceparent"));
    }
}
