package dev.steadfast.packaged;

import static dev.steadfast.testsupport.Api.request;
import static org.hamcrest.Matchers.containsString;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** In production the console requires a login: a page without a session is sent to the login form. */
@QuarkusIntegrationTest
@TestProfile(PackagedApp.class)
class ConsoleLoginIT {

    @BeforeAll
    static void authorize() {
        PackagedApp.authorize();
    }


    @Test
    void pagesNeedALogin() {
        request().redirects().follow(false).get("/admin/queues").then().statusCode(303)
                .header("Location", containsString("/admin/login"));
        request().get("/admin/login").then().statusCode(200).body(containsString("password"));
    }
}
