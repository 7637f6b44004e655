package dev.steadfast.service;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static dev.steadfast.testsupport.Api.request;
import static org.hamcrest.Matchers.equalTo;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Retry policy scopes: job > type > queue > server default, and the max_attempts clamp. */
@QuarkusTest
@TestProfile(RetryScopesTest.Scopes.class)
class RetryScopesTest {

    public static class Scopes implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "steadfast.retry.defaults", "{\"max_attempts\":5}",
                    "steadfast.retry.queues.billing", "{\"on_exhaustion\":\"dead_letter\",\"initial_interval\":\"PT10S\"}",
                    "steadfast.retry.types.\"invoice.send\"", "{\"max_attempts\":10}",
                    "steadfast.retry.max-attempts-clamp", "100");
        }
    }

    @Test
    void theMostSpecificScopeWins() {
        Api.reset();
        push(obj("type", "other.job", "args", arr())).then().statusCode(201)
                .body("job.max_attempts", equalTo(5)).body("job.retry.initial_interval", equalTo("PT1S"));
        push(obj("type", "other.job", "args", arr(), "options", obj("queue", "billing"))).then()
                .body("job.max_attempts", equalTo(5)).body("job.retry.on_exhaustion", equalTo("dead_letter"))
                .body("job.retry.initial_interval", equalTo("PT10S"));
        push(obj("type", "invoice.send", "args", arr(), "options", obj("queue", "billing",
                "retry", obj("jitter", false)))).then()
                .body("job.max_attempts", equalTo(10)).body("job.retry.on_exhaustion", equalTo("dead_letter"))
                .body("job.retry.initial_interval", equalTo("PT10S")).body("job.retry.jitter", equalTo(false));
        push(obj("type", "invoice.send", "args", arr(), "options", obj("retry", obj("max_attempts", 2)))).then()
                .body("job.max_attempts", equalTo(2));
        push(obj("type", "invoice.send", "args", arr(), "options", obj("retry", obj("max_attempts", 500)))).then()
                .body("job.max_attempts", equalTo(100));
        request().get("/ojs/v1/retry-policies").then().statusCode(200)
                .body("default.max_attempts", equalTo(5)).body("max_attempts_clamp", equalTo(100))
                .body("queues.billing.on_exhaustion", equalTo("dead_letter"))
                .body("types.'invoice.send'.max_attempts", equalTo(10));
    }
}
