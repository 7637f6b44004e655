package dev.steadfast.packaged;

import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.request;
import static org.hamcrest.Matchers.containsString;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console's checked Qute templates render in the packaged application, with login switched off by explicit
 * configuration (the override is passed to the launched process).
 */
@QuarkusIntegrationTest
@TestProfile(ConsoleWithoutLoginIT.LoginOff.class)
class ConsoleWithoutLoginIT {

    /** Console login off. */
    public static class LoginOff extends PackagedApp {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> m = new java.util.HashMap<>(super.getConfigOverrides());
            m.put("steadfast.console.auth-enabled", "false");
            return m;
        }
    }

    @BeforeAll
    static void authorize() {
        PackagedApp.authorize();
    }

    @Test
    void pagesRender() {
        String queue = JobLifecycleIT.freshQueue("console");
        String id = enqueue("it.console", queue);
        request().get("/admin").then().statusCode(200).header("Content-Security-Policy", containsString("default-src"));
        request().get("/admin/queues").then().statusCode(200).body(containsString(queue));
        request().get("/admin/jobs/" + id).then().statusCode(200).body(containsString(id));
        request().get("/admin/dead-letter").then().statusCode(200);
        request().get("/admin/workers").then().statusCode(200);
    }
}
