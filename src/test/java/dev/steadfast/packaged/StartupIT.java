package dev.steadfast.packaged;

import static dev.steadfast.testsupport.Api.request;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged application starts in the prod profile, migrates its database and answers its health, manifest,
 * metrics and OpenAPI endpoints; the reset hook, on only in dev and test, is off.
 */
@QuarkusIntegrationTest
@TestProfile(PackagedApp.class)
class StartupIT {

    @BeforeAll
    static void authorize() {
        PackagedApp.authorize();
    }


    @Test
    void healthIsUpWithTheDatabaseReachable() {
        request().get("/q/health").then().statusCode(200).body("status", equalTo("UP"));
        request().get("/ojs/v1/health").then().statusCode(200).body("status", equalTo("ok"))
                .body("backend.status", notNullValue());
    }

    @Test
    void theApiRefusesARequestWithoutAToken() {
        PackagedApp.anonymous();
        try {
            request().get("/ojs/v1/queues").then().statusCode(401).header("WWW-Authenticate",
                    org.hamcrest.Matchers.startsWith("Bearer"));
        } finally {
            PackagedApp.authorize();
        }
        request().get("/ojs/v1/queues").then().statusCode(200);
    }

    @Test
    void manifestDescribesTheServer() {
        request().get("/ojs/manifest").then().statusCode(200)
                .header("OJS-Version", "1.0")
                .body("specversion", equalTo("1.0"))
                .body("implementation.name", equalTo("steadfast"))
                .body("capabilities.dead_letter", equalTo(true));
    }

    @Test
    void metricsQueuesAndOpenApiAreServed() {
        request().get("/q/metrics").then().statusCode(200);
        request().get("/ojs/v1/queues").then().statusCode(200).body("queues", notNullValue());
        request().get("/q/openapi").then().statusCode(200);
    }

    @Test
    void theResetHookIsOffInProduction() {
        request().post("/ojs/v1/admin/reset").then().statusCode(404).body("error.code", equalTo("not_found"));
    }
}
