package dev.steadfast.packaged;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.OpenApiContract;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged application starts in the prod profile, migrates its database and answers its health, manifest,
 * metrics and OpenAPI endpoints (the shipped document, whose PUSH it answers as documented); the reset hook, on only in dev and test, is off.
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
        request().get("/q/health").then().statusCode(200).body(at("status", equalTo("UP")));
        request().get("/ojs/v1/health").then().statusCode(200).body(at("status", equalTo("ok")))
                .body(at("backend.status", notNullValue()));
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
                .body(at("specversion", equalTo("1.0")))
                .body(at("implementation.name", equalTo("steadfast")))
                .body(at("capabilities.dead_letter", equalTo(true)));
    }

    @Test
    void metricsQueuesAndOpenApiAreServed() throws Exception {
        request().get("/q/metrics").then().statusCode(200);
        request().get("/ojs/v1/queues").then().statusCode(200).body(at("queues", notNullValue()));
        request().get("/q/openapi").then().statusCode(200);
        // the packaged jar serves the shipped document unchanged, without console routes, and answers as it says
        OpenApiContract doc = new OpenApiContract(request().get("/q/openapi?format=json").then().statusCode(200)
                .extract().asString());
        assertEquals(OpenApiContract.shippedDocument(), doc.document());
        assertTrue(doc.operations().stream().noneMatch(op -> op.contains(" /admin")), doc.operations().toString());
        doc.check("POST /ojs/v1/jobs", send(obj("type", "startup.check", "args", arr())).post("/ojs/v1/jobs"))
                .then().statusCode(201);
        doc.check("GET /ojs/v1/queues", request().get("/ojs/v1/queues"));
        doc.check("GET /ready", request().get("/ready"));
    }

    @Test
    void theResetHookIsOffInProduction() {
        request().post("/ojs/v1/admin/reset").then().statusCode(404).body(at("error.code", equalTo("not_found")));
    }
}
