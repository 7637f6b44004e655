package dev.steadfast.packaged;

import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.request;
import static org.hamcrest.Matchers.containsString;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console's checked Qute templates render in the packaged application, with login switched off by explicit
 * configuration: on the suite's second instance ({@link SecondInstance#shared}, whose process gets the setting in
 * its environment), beside the one Quarkus launched, on the same database.
 */
@QuarkusIntegrationTest
@TestProfile(PackagedApp.class)
class ConsoleWithoutLoginIT {

    static SecondInstance second;

    @BeforeAll
    static void startSecondInstance() throws Exception {
        PackagedApp.authorize();
        second = SecondInstance.shared();
    }

    @Test
    void pagesRender() {
        String queue = JobLifecycleIT.freshQueue("console");
        String id = enqueue("it.console", queue);
        page().get("/admin").then().statusCode(200).header("Content-Security-Policy", containsString("default-src"));
        page().get("/admin/queues").then().statusCode(200).body(containsString(queue));
        page().get("/admin/jobs/" + id).then().statusCode(200).body(containsString(id));
        page().get("/admin/dead-letter").then().statusCode(200);
        page().get("/admin/workers").then().statusCode(200);
    }

    /** A request to the second instance. */
    private static RequestSpecification page() {
        return request().port(second.port);
    }
}
