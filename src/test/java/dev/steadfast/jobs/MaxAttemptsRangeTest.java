package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static dev.steadfast.testsupport.Api.request;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Flare's rule as configuration: max_attempts must be from 1 to 100, and a value outside is reset to the server
 * default (3). The rule judges the merged policy, so a type scope's value is judged like a job's.
 */
@QuarkusTest
@TestProfile(MaxAttemptsRangeTest.Flare.class)
class MaxAttemptsRangeTest {

    public static class Flare implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "steadfast.retry.max-attempts-min", "1",
                    "steadfast.retry.max-attempts-max", "100",
                    "steadfast.retry.max-attempts-out-of-range", "reset",
                    "steadfast.retry.types.\"too.many\"", "{\"max_attempts\":1000}");
        }
    }

    @Test
    void outOfRangeValuesAreResetToTheDefault() {
        push(obj("type", "f.x", "args", arr(), "options", obj("retry", obj("max_attempts", 500)))).then()
                .statusCode(201).body("job.max_attempts", equalTo(3));
        push(obj("type", "f.x", "args", arr(), "options", obj("retry", obj("max_attempts", 0)))).then()
                .statusCode(201).body("job.max_attempts", equalTo(3));
        push(obj("type", "f.x", "args", arr(), "options", obj("retry", obj("max_attempts", 100)))).then()
                .statusCode(201).body("job.max_attempts", equalTo(100));
        push(obj("type", "too.many", "args", arr())).then().statusCode(201).body("job.max_attempts", equalTo(3));
        request().get("/ojs/v1/retry-policies").then().statusCode(200)
                .body("max_attempts_range.min", equalTo(1)).body("max_attempts_range.max", equalTo(100))
                .body("max_attempts_range.out_of_range", equalTo("reset"));
    }
}
