package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** With steadfast.retry.max-attempts-out-of-range=reject, a job whose max_attempts is out of range is a 422. */
@QuarkusTest
@TestProfile(MaxAttemptsRejectTest.Reject.class)
class MaxAttemptsRejectTest {

    public static class Reject implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "steadfast.retry.max-attempts-min", "1",
                    "steadfast.retry.max-attempts-max", "10",
                    "steadfast.retry.max-attempts-out-of-range", "reject");
        }
    }

    @Test
    void outOfRangeValuesAreRefusedNamingTheField() {
        for (int bad : new int[] {0, 11, 500}) {
            Map<String, Object> e = assertError(push(obj("type", "r.x", "args", arr(), "options",
                    obj("queue", "reject-q", "retry", obj("max_attempts", bad)))), 422, "validation_error");
            assertEquals("retry.max_attempts", detailField(e));
        }
        push(obj("type", "r.x", "args", arr(), "options", obj("retry", obj("max_attempts", 10)))).then()
                .statusCode(201).body("job.max_attempts", equalTo(10));
    }
}
