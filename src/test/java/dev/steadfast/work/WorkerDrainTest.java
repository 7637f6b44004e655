package dev.steadfast.work;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A worker that reports quiet or drain gets no new jobs (ojs-graceful-shutdown.md 5); running again, it does. */
@QuarkusTest
class WorkerDrainTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void aDrainingWorkerGetsNothingAndItsStateIsReadable() {
        String id = enqueue("t.drain", "gs-q");
        send(obj("worker_id", "w-drain", "state", "drain", "active_jobs", 2)).post("/ojs/v1/workers/beat").then()
                .statusCode(200).body(at("acknowledged", equalTo(true)));
        request().get("/ojs/v1/workers/w-drain/health").then().statusCode(200).body(at("state", equalTo("drain")))
                .body(at("accepts_jobs", equalTo(false)));
        assertEquals(List.of(), fetchIds("w-drain", 1, "gs-q"), "a draining worker is handed nothing");
        assertEquals(List.of(id), fetchIds("w-other", 1, "gs-q"), "another worker gets the job");
    }

    @Test
    void aHeartbeatWithoutStateMeansRunningAgain() {
        enqueue("t.drain", "gs-back");
        send(obj("worker_id", "w-back", "state", "quiet")).post("/ojs/v1/workers/heartbeat").then().statusCode(200);
        assertEquals(List.of(), fetchIds("w-back", 1, "gs-back"));
        send(obj("worker_id", "w-back", "active_jobs", arr())).post("/ojs/v1/workers/heartbeat").then()
                .statusCode(200);
        request().get("/ojs/v1/workers/w-back/health").then().body(at("state", equalTo("running")));
        assertEquals(1, fetchIds("w-back", 1, "gs-back").size(), "a restarted worker is not refused forever");
    }

    @Test
    void badStatesAndUnknownWorkersAreRefused() {
        assertError(send(obj("worker_id", "w-bad", "state", "sleepy")).post("/ojs/v1/workers/beat"), 400,
                "invalid_request");
        assertError(request().get("/ojs/v1/workers/nobody/health"), 404, "not_found");
    }
}
