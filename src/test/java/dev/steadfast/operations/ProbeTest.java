package dev.steadfast.operations;

import static dev.steadfast.testsupport.JsonPaths.at;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** The observability probes at the root: /health, /ready, /metrics (ojs-observability.md). */
@QuarkusTest
class ProbeTest {

    @Test
    void healthIsStructuredAndEchoesTheRequestId() {
        given().header("X-Request-Id", "probe-req-1").get("/health").then().statusCode(200)
                .header("X-Request-Id", equalTo("probe-req-1")).body(at("status", equalTo("ok")))
                .body(at("backend.status", equalTo("ok"))).body(at("backend.connected", equalTo(true)));
        given().get("/health").then().header("X-Request-Id", startsWith("req_"));
        given().get("/ojs/v1/health").then().statusCode(200).body(at("backend.status", equalTo("ok")));
    }

    @Test
    void readyAnswersWithAStatus() {
        given().get("/ready").then().statusCode(200).body(at("status", equalTo("ready")))
                .body(at("backend.status", equalTo("ok")));
    }

    @Test
    void metricsArePrometheusText() {
        given().get("/metrics").then().statusCode(200).header("Content-Type", equalTo("text/plain"))
                .body(containsString("# TYPE"));
    }
}
