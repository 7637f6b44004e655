package dev.steadfast.queues;

import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.JsonPaths.at;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JobsInState;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Pause and resume (ojs-http-binding.md 11.3/11.4, ojs-admin-api.md 6.1-6.4): a paused queue hands out nothing. */
@QuarkusTest
class QueueApiTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void aPausedQueueAcceptsJobsButFetchReturnsNoneUntilResumed() {
        String first = enqueue("t.p", "paused-q");
        Response p = request().post("/ojs/v1/queues/paused-q/pause");
        p.then().statusCode(200).body(at("queue.name", equalTo("paused-q"))).body(at("queue.paused", equalTo(true)))
                .body(at("queue.status", equalTo("paused")));
        assertTrue(Api.TIMESTAMP.matcher(path(p, "queue.paused_at")).matches(), p.asString());
        String second = enqueue("t.p", "paused-q");
        enqueue("t.p", "other-q");

        assertEquals(List.of(), fetchIds("w", 10, "paused-q"));
        assertEquals(1, fetchIds("w", 10, "paused-q", "other-q").size(), "other queues still serve");
        request().get("/ojs/v1/queues").then().body("queues.find { it.name == 'paused-q' }.status", equalTo("paused"));

        request().post("/ojs/v1/queues/paused-q/resume").then().statusCode(200)
                .body(at("queue.status", equalTo("active"))).body(at("queue.name", equalTo("paused-q")))
                .body(at("queue.paused", equalTo(false)));
        assertEquals(List.of(first, second), fetchIds("w", 10, "paused-q"));
    }

    @Test
    void theAdminShapesCarryCountsAndThePauseSwitch() {
        JobsInState.deadLetter("adm-q", "t.a", "E", "boom");
        enqueue("t.a", "adm-q");
        request().post("/ojs/v1/admin/queues/adm-q/pause").then().statusCode(200)
                .body(at("name", equalTo("adm-q"))).body(at("paused", equalTo(true)));
        request().get("/ojs/v1/admin/queues").then().statusCode(200)
                .body(at("items.name", hasItem("adm-q")))
                .body("items.find { it.name == 'adm-q' }.counts.available", equalTo(1))
                .body("items.find { it.name == 'adm-q' }.counts.discarded", equalTo(1))
                .body("items.find { it.name == 'adm-q' }.counts.dead_letter", equalTo(1))
                .body("items.find { it.name == 'adm-q' }.state", equalTo("paused"));
        request().get("/ojs/v1/admin/queues/adm-q").then().statusCode(200).body(at("paused", equalTo(true)));
        request().post("/ojs/v1/admin/queues/adm-q/resume").then().statusCode(200).body(at("paused", equalTo(false)));
        assertEquals(1, fetchIds("w", 10, "adm-q").size());
    }

    @Test
    void aQueueCanBePausedBeforeItsFirstJobAndPausingTwiceKeepsTheFirstInstant() {
        String at = path(request().post("/ojs/v1/queues/early/pause").then().statusCode(200).extract(), "queue.paused_at");
        request().post("/ojs/v1/queues/early/pause").then().statusCode(200).body(at("queue.paused_at", equalTo(at)));
        enqueue("t.e", "early");
        assertEquals(List.of(), fetchIds("w", 1, "early"));
    }

    @Test
    void statsCountEveryStateOfOneQueueNow() {
        enqueue("t.s", "st-q");
        enqueue("t.s", "st-q");
        enqueue("t.s", "other-q");
        fetchIds("w", 1, "st-q");
        request().get("/ojs/v1/queues/st-q/stats").then().statusCode(200)
                .body(at("queue.name", equalTo("st-q"))).body(at("queue.paused", equalTo(false)))
                .body(at("queue.available", equalTo(1))).body(at("queue.active", equalTo(1)))
                .body(at("queue.completed", equalTo(0))).body(at("stats.available", equalTo(1)));
        request().post("/ojs/v1/queues/empty-q/pause").then().statusCode(200);
        request().get("/ojs/v1/queues/empty-q/stats").then().statusCode(200)
                .body(at("queue.paused", equalTo(true))).body(at("queue.available", equalTo(0)))
                .body(at("status", equalTo("paused")));
        assertError(request().get("/ojs/v1/queues/never-seen/stats"), 404, "not_found");
        assertError(request().get("/ojs/v1/queues/Bad_Name/stats"), 400, "invalid_request");
    }

    @Test
    void pauseAndResumeEmitQueueEvents() {
        request().post("/ojs/v1/queues/ev-q/pause").then().statusCode(200);
        request().post("/ojs/v1/admin/queues/ev-q/resume").then().statusCode(200);
        request().get(Api.EVENTS + "?types=queue.paused,queue.resumed").then().statusCode(200)
                .body(at("events.type", equalTo(List.of("queue.paused", "queue.resumed"))))
                .body(at("events[0].subject", equalTo("ev-q")))
                .body(at("events[0].data.paused_by", equalTo("api")))
                .body(at("events[1].data.resumed_by", equalTo("admin-api")));
    }

    @Test
    void badNamesAndUnknownQueuesAnswerTheEnvelope() {
        assertError(request().post("/ojs/v1/queues/Bad_Name/pause"), 400, "invalid_request");
        assertError(request().post("/ojs/v1/queues/never-seen/resume"), 404, "not_found");
        assertError(request().post("/ojs/v1/admin/queues/never-seen/resume"), 404, "not_found");
        assertError(request().get("/ojs/v1/admin/queues/never-seen"), 404, "not_found");
        assertError(request().get("/ojs/v1/queues/x/pause"), 405, "invalid_request");
    }
}
