package dev.steadfast.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
class SmokeTest {

    @Test
    void pushFetchAck() {
        String id = given().contentType("application/openjobspec+json")
                .body("{\"type\":\"email.send\",\"args\":[1]}")
                .post("/ojs/v1/jobs").then().statusCode(201).extract().path("job.id");
        given().contentType("application/json").body("{\"queues\":[\"default\"],\"worker_id\":\"w\"}")
                .post("/ojs/v1/workers/fetch").then().statusCode(200).body("jobs[0].id", equalTo(id));
        given().contentType("application/json").body("{\"job_id\":\"" + id + "\"}")
                .post("/ojs/v1/workers/ack").then().statusCode(200).body("state", equalTo("completed"));
    }
}
