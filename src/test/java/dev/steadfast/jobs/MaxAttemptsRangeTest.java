package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;

import dev.steadfast.http.ApiAuthTest;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Flare's rule as configuration: max_attempts must be from 1 to 100, and a value outside is reset to the server
 * default (3). The rule judges the merged policy, so a type scope's value is judged like a job's.
 */
@QuarkusTest
@TestProfile(Profiles.TokensWithoutReset.class)
class MaxAttemptsRangeTest {

    @BeforeEach
    void asAdmin() {
        Api.sendToken(ApiAuthTest.ADMIN); // this profile has API authentication on
    }

    @AfterEach
    void withoutToken() {
        Api.sendToken(null);
    }

    @Test
    void outOfRangeValuesAreResetToTheDefault() {
        push(obj("type", "f.x", "args", arr(), "options", obj("retry", obj("max_attempts", 500)))).then()
                .statusCode(201).body(at("job.max_attempts", equalTo(3)));
        push(obj("type", "f.x", "args", arr(), "options", obj("retry", obj("max_attempts", 0)))).then()
                .statusCode(201).body(at("job.max_attempts", equalTo(3)));
        push(obj("type", "f.x", "args", arr(), "options", obj("retry", obj("max_attempts", 100)))).then()
                .statusCode(201).body(at("job.max_attempts", equalTo(100)));
        push(obj("type", "too.many", "args", arr())).then().statusCode(201).body(at("job.max_attempts", equalTo(3)));
        request().get("/ojs/v1/retry-policies").then().statusCode(200)
                .body(at("max_attempts_range.min", equalTo(1))).body(at("max_attempts_range.max", equalTo(100)))
                .body(at("max_attempts_range.out_of_range", equalTo("reset")));
    }
}
