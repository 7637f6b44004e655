package dev.steadfast.packaged;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The admin API's seed operations and the maintenance health signals in the packaged application: count by
 * state, delete completed before a cutoff, the metrics summary, the readiness check and the maintenance gauge.
 */
@QuarkusIntegrationTest
@TestProfile(PackagedApp.class)
class AdminApiIT {

    @BeforeAll
    static void token() {
        PackagedApp.authorize();
    }

    @Test
    void countSummaryAndDeleteCompleted() {
        String queue = JobLifecycleIT.freshQueue("admin");
        String done = enqueue("it.admin", queue);
        assertEquals(done, fetchOne("it-worker", queue));
        ack(done).then().statusCode(200);
        enqueue("it.admin", queue);
        request().get("/ojs/v1/admin/jobs/count?queue=" + queue).then().statusCode(200)
                .body(at("counts.completed", equalTo(1))).body(at("counts.available", equalTo(1)));
        request().get("/ojs/v1/admin/metrics/summary").then().statusCode(200)
                .body(at("dead_letter.total", notNullValue())).body(at("last_hour.completed", notNullValue()));
        request().delete("/ojs/v1/admin/jobs/completed").then().statusCode(400)
                .body(at("error.code", equalTo("invalid_request")));
    }

    @Test
    void maintenanceReportsItsLastSuccess() {
        request().get("/q/health/ready").then().statusCode(200).body(at("checks.name", hasItem("maintenance")));
        request().get("/q/metrics").then().statusCode(200)
                .body(org.hamcrest.Matchers.containsString("steadfast_maintenance_last_success_seconds"));
    }
}
