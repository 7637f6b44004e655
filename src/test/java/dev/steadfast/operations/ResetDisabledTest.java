package dev.steadfast.operations;

import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.info;
import static dev.steadfast.testsupport.Api.request;

import dev.steadfast.http.ApiAuthTest;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Without steadfast.admin.reset-enabled (the production default) the reset hook does not exist. */
@QuarkusTest
@TestProfile(Profiles.TokensWithoutReset.class)
class ResetDisabledTest {

    @BeforeEach
    void asAdmin() {
        Api.sendToken(ApiAuthTest.ADMIN); // this profile has API authentication on
    }

    @AfterEach
    void withoutToken() {
        Api.sendToken(null);
    }

    @Test
    void theResetHookAnswers404AndEmptiesNothing() {
        String id = enqueue("keep.me", "reset-off");
        Api.assertError(request().post("/ojs/v1/admin/reset"), 404, "not_found");
        info(id).then().statusCode(200);
    }
}
