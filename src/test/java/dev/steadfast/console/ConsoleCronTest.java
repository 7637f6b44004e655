package dev.steadfast.console;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.Console.flash;
import static dev.steadfast.testsupport.Console.post;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Console;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The cron page: schedules with next and last runs; pause, resume, and delete after a confirmation. */
@QuarkusTest
class ConsoleCronTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void listsSchedulesAndPausesResumesAndDeletesThem() {
        send(obj("name", "nightly-report", "cron", "0 3 * * *", "timezone", "Europe/Berlin", "type", "report.build",
                "args", arr("<b>x</b>"), "options", obj("queue", "reports"))).post("/ojs/v1/cron").then().statusCode(201);
        String page = Console.request().get("/admin/cron").asString();
        assertTrue(page.contains("nightly-report"), page);
        assertTrue(page.contains("0 3 * * *"));
        assertTrue(page.contains("Europe/Berlin"));
        assertTrue(page.contains("report.build"));
        assertTrue(page.contains("aria-current=\"page\">Cron"), "the nav links the page instead of 'soon'");
        assertFalse(page.contains("soon"));

        Response paused = post("/admin/cron/nightly-report/pause");
        assertEquals(303, paused.statusCode());
        assertTrue(flash(paused).contains("Paused"), flash(paused));
        assertEquals("paused", path(Api.request().get("/ojs/v1/cron/nightly-report"), "cron.status"));
        post("/admin/cron/nightly-report/resume").then().statusCode(303);
        assertEquals("active", path(Api.request().get("/ojs/v1/cron/nightly-report"), "cron.status"));

        Response ask = post("/admin/cron/nightly-report/delete");
        assertEquals(200, ask.statusCode());
        assertTrue(ask.asString().contains("name=\"confirm\" value=\"yes\""));
        Api.request().get("/ojs/v1/cron/nightly-report").then().statusCode(200);
        post("/admin/cron/nightly-report/delete", "confirm", "yes").then().statusCode(303);
        Api.request().get("/ojs/v1/cron/nightly-report").then().statusCode(404);
        assertTrue(Console.request().get("/admin/cron").asString().contains("No cron schedules yet"));
        assertEquals(404, post("/admin/cron/nope/pause").statusCode());
    }
}
