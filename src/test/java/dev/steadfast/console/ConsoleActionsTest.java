package dev.steadfast.console;

import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.Console.flash;
import static dev.steadfast.testsupport.Console.post;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Console;
import dev.steadfast.testsupport.JobsInState;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's actions: every destructive one answers a confirmation page and changes nothing until the form
 * comes back with confirm=yes; then it acts through the shared services and redirects with a message.
 */
@QuarkusTest
class ConsoleActionsTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void retryNeedsConfirmationThenMakesTheJobAvailable() {
        String id = JobsInState.retryable("ca-r", "x.y", "E", "later");
        Response ask = post("/admin/jobs/" + id + "/actions/retry");
        assertEquals(200, ask.statusCode());
        assertTrue(ask.asString().contains("name=\"confirm\" value=\"yes\""), ask.asString());
        assertTrue(ask.asString().contains("Retry now?"));
        assertEquals("retryable", state(id), "asking changes nothing");

        Response done = post("/admin/jobs/" + id + "/actions/retry", "confirm", "yes");
        assertEquals(303, done.statusCode());
        assertEquals("/admin/jobs/" + id, java.net.URI.create(done.header("Location")).getPath());
        assertTrue(flash(done).contains("available"), flash(done));
        assertEquals("available", state(id));
        String page = Console.request().cookie("steadfast_flash", done.getCookie("steadfast_flash"))
                .get("/admin/jobs/" + id).asString();
        assertTrue(page.contains("class=\"flash\""), "the next page shows the message");
    }

    @Test
    void cancelAndDeleteNeedConfirmation() {
        String id = enqueue("x.y", "ca-c");
        post("/admin/jobs/" + id + "/actions/cancel", "confirm", "no").then().statusCode(200);
        assertEquals("available", state(id));
        post("/admin/jobs/" + id + "/actions/cancel", "confirm", "yes").then().statusCode(303);
        assertEquals("cancelled", state(id));
        post("/admin/jobs/" + id + "/actions/delete").then().statusCode(200);
        post("/admin/jobs/" + id + "/actions/delete", "confirm", "yes").then().statusCode(303);
        Api.info(id).then().statusCode(404);
        post("/admin/jobs/" + id + "/actions/delete", "confirm", "yes").then().statusCode(404);
    }

    @Test
    void refusedTransitionsAnswer409Pages() {
        String id = JobsInState.completed("ca-x", "x.y");
        Response r = post("/admin/jobs/" + id + "/actions/retry", "confirm", "yes");
        assertEquals(409, r.statusCode());
        assertTrue(r.contentType().startsWith("text/html") && r.asString().contains("completed"));
    }

    @Test
    void pauseAndResumeFromTheQueuesPage() {
        enqueue("x.y", "ca-p");
        Response p = post("/admin/queues/ca-p/pause");
        assertEquals(303, p.statusCode());
        assertTrue(flash(p).startsWith("Paused queue ca-p"));
        assertEquals(List.of(), fetchIds("w", 1, "ca-p"));
        post("/admin/queues/ca-p/resume").then().statusCode(303);
        assertEquals(1, fetchIds("w", 1, "ca-p").size());
        post("/admin/queues/Bad_Name/pause").then().statusCode(400);
        post("/admin/queues/unknown-q/resume").then().statusCode(404);
    }

    @Test
    void deadLetterBulkActsOnTheSelectionOrOnEverythingMatching() {
        String a = JobsInState.deadLetter("cb-a", "t.a", "DbError", "x");
        String b = JobsInState.deadLetter("cb-a", "t.a", "DbError", "x");
        String c = JobsInState.deadLetter("cb-b", "t.b", "HttpError", "x");
        JobsInState.deadLetter("cb-b", "t.b", "HttpError", "x");

        Response ask = post("/admin/dead-letter/bulk", "op", "retry-selected", "id", a, "id", b);
        assertTrue(ask.asString().contains("Re-enqueue 2 jobs?"), ask.asString());
        assertEquals("discarded", state(a));
        Response done = post("/admin/dead-letter/bulk", "op", "retry-selected", "id", a, "id", b, "confirm", "yes");
        assertEquals(303, done.statusCode());
        assertEquals("Re-enqueued 2 jobs.", flash(done));
        assertEquals("available", state(b));

        Response askAll = post("/admin/dead-letter/bulk", "op", "delete-matching", "error_type", "HttpError");
        assertTrue(askAll.asString().contains("Delete 2 jobs?"), "the count, not the page");
        assertTrue(askAll.asString().contains("whose last error is HttpError"));
        Response deleted = post("/admin/dead-letter/bulk", "op", "delete-matching", "error_type", "HttpError",
                "confirm", "yes");
        assertEquals("Deleted 2 jobs.", flash(deleted));
        assertTrue(deleted.header("Location").contains("error_type=HttpError"), "back to the same filter");
        Api.info(c).then().statusCode(404);

        post("/admin/dead-letter/bulk", "op", "retry-selected").then().statusCode(400);
        post("/admin/dead-letter/bulk", "op", "explode").then().statusCode(400);
    }
}
