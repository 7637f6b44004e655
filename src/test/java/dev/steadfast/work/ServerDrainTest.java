package dev.steadfast.work;

import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a server does once it begins to shut down (the SIGTERM delay): no job handed out; heartbeats say quiet;
 * health answers 503. Draining is for good, so this class runs last of its profile's classes ({@code Switches}):
 * Quarkus orders the classes of a profile by their fully qualified names, and {@code TestProfilesTest} checks that
 * this one sorts after the others; the next profile's classes get a server of their own.
 */
@QuarkusTest
@TestProfile(Profiles.Switches.class)
class ServerDrainTest {

    @Inject
    Draining draining;

    @Test
    void aShuttingDownServerHandsOutNothingAndSaysSo() {
        Api.reset();
        String id = enqueue("t.shutdown", "gs-server");
        draining.begin();
        assertEquals(List.of(), fetchIds("w-s", 1, "gs-server"));
        send(obj("worker_id", "w-s")).post("/ojs/v1/workers/heartbeat").then().statusCode(200)
                .body(at("state", equalTo("quiet"))).body(at("directive", equalTo("quiet")));
        request().get("/ojs/v1/health").then().statusCode(503).body(at("status", equalTo("degraded")))
                .body(at("shutting_down", equalTo(true)));
        request().get("/ready").then().statusCode(503).body(at("status", equalTo("not_ready")));
        assertEquals("available", Api.state(id), "the job waits for another instance");
    }
}
