package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.http.ApiAuthTest;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** With steadfast.retry.max-attempts-out-of-range=reject, a job whose max_attempts is out of range is a 422. */
@QuarkusTest
@TestProfile(Profiles.Tokens.class)
class MaxAttemptsRejectTest {

    @BeforeEach
    void asAdmin() {
        Api.sendToken(ApiAuthTest.ADMIN); // this profile has API authentication on
    }

    @AfterEach
    void withoutToken() {
        Api.sendToken(null);
    }

    @Test
    void outOfRangeValuesAreRefusedNamingTheField() {
        for (int bad : new int[] {0, 11, 500}) {
            Map<String, Object> e = assertError(push(obj("type", "r.x", "args", arr(), "options",
                    obj("queue", "reject-q", "retry", obj("max_attempts", bad)))), 422, "validation_error");
            assertEquals("retry.max_attempts", detailField(e));
        }
        push(obj("type", "r.x", "args", arr(), "options", obj("retry", obj("max_attempts", 10)))).then()
                .statusCode(201).body(at("job.max_attempts", equalTo(10)));
    }
}
