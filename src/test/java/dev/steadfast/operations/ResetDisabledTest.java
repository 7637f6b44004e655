package dev.steadfast.operations;

import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.info;
import static dev.steadfast.testsupport.Api.request;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Without steadfast.admin.reset-enabled (the production default) the reset hook does not exist. */
@QuarkusTest
@TestProfile(ResetDisabledTest.Production.class)
class ResetDisabledTest {

    public static class Production implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("steadfast.admin.reset-enabled", "false");
        }
    }

    @Test
    void theResetHookAnswers404AndEmptiesNothing() {
        String id = enqueue("keep.me", "reset-off");
        Api.assertError(request().post("/ojs/v1/admin/reset"), 404, "not_found");
        info(id).then().statusCode(200);
    }
}
