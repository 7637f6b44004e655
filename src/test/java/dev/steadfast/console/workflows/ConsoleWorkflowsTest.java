package dev.steadfast.console.workflows;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Console.get;
import static dev.steadfast.testsupport.Console.post;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's workflow pages against PostgreSQL: the list with its filters, one workflow's graph with every job
 * linked to its page, the job page's link to it, and the cancel and retry-failed actions behind a confirmation.
 */
@QuarkusTest
class ConsoleWorkflowsTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static Map<String, Object> job(String type, String queue, Object... options) {
        return obj("type", type, "args", arr(), "options", obj("queue", queue, options.length > 0 ? "retry" : "priority",
                options.length > 0 ? options[0] : 0));
    }

    static Response create(Object body) {
        Response r = Api.send(body).post("/ojs/v1/workflows");
        assertEquals(201, r.statusCode(), r::asString);
        return r;
    }

    static String page(String path) {
        Response r = get(path);
        assertEquals(200, r.statusCode(), () -> path + " answered " + r.statusCode() + ": " + r.asString());
        assertTrue(r.contentType().startsWith("text/html"), r.contentType());
        return r.asString();
    }

    @Test
    void theWorkflowPageDrawsEveryJobLinkedToItsPage() {
        Response chain = create(obj("type", "chain", "name", "cw-chain", "steps", arr(job("cw.first", "cw-q"),
                obj("type", "group", "name", "cw-inner", "jobs", arr(job("cw.a", "cw-q"), job("cw.b", "cw-q"))),
                job("cw.last", "cw-q"))));
        String id = path(chain, "workflow.id");
        String inner = path(chain, "workflow.steps[1].workflow_id");
        String first = path(chain, "workflow.steps[0].job_id");
        String last = path(chain, "workflow.steps[2].job_id");
        List<String> innerJobs = path(Api.request().get("/ojs/v1/workflows/" + inner), "workflow.jobs.job_id");

        String html = page("/admin/workflows/" + id);
        assertTrue(html.contains("<svg"), "the graph is inline SVG");
        for (String job : List.of(first, last, innerJobs.get(0), innerJobs.get(1))) {
            assertTrue(html.contains("<a href=\"/admin/jobs/" + job + "\" class=\"wf-node wf-"), job + " in " + html);
        }
        assertTrue(html.contains("class=\"wf-node wf-available\" data-job=\"" + first + "\""), "coloured by state");
        assertTrue(html.contains("class=\"wf-node wf-pending\" data-job=\"" + last + "\""));
        assertTrue(html.contains("<a href=\"/admin/workflows/" + inner + "\"><text"), "the nested frame links on");
        assertTrue(html.contains("group · cw-inner"));
        assertTrue(html.contains("action=\"/admin/workflows/" + id + "/actions/cancel\""));
        assertFalse(html.contains("/actions/retry-failed"), "nothing failed yet");

        String nested = page("/admin/workflows/" + inner);
        assertTrue(nested.contains("href=\"/admin/workflows/" + id + "\""), "back to its parent");

        String jobPage = page("/admin/jobs/" + first);
        assertTrue(jobPage.contains("href=\"/admin/workflows/" + id + "\""), "the job's workflow panel links here");
        assertTrue(page("/admin").contains("href=\"/admin/workflows\""), "in the console's navigation");
    }

    @Test
    void theListFiltersLikeTheApi() {
        String chain = path(create(obj("type", "chain", "name", "nightly", "steps", arr(job("cw.a", "cw-l")))), "workflow.id");
        String batch = path(create(obj("type", "batch", "name", "import", "jobs", arr(job("cw.b", "cw-l")),
                "callbacks", obj("on_complete", job("cw.done", "cw-l")))), "workflow.id");
        String all = page("/admin/workflows");
        assertTrue(all.contains("href=\"/admin/workflows/" + chain + "\"") && all.contains("/admin/workflows/" + batch));
        String batches = page("/admin/workflows?type=batch");
        assertTrue(batches.contains("/admin/workflows/" + batch) && !batches.contains("/admin/workflows/" + chain));
        String named = page("/admin/workflows?name=NIGHT&state=running&created_after=2020-01-01T00:00");
        assertTrue(named.contains("/admin/workflows/" + chain) && !named.contains("/admin/workflows/" + batch));
        assertTrue(page("/admin/workflows?state=failed").contains("No workflow matches this filter."));

        Response bad = get("/admin/workflows?state=sleeping");
        assertEquals(400, bad.statusCode());
        assertTrue(bad.contentType().startsWith("text/html"));
        assertTrue(bad.asString().contains("state"), bad.asString());
        assertEquals(400, get("/admin/workflows?cursor=nonsense").statusCode());
        assertEquals(404, get("/admin/workflows/" + Api.newUuidV7()).statusCode());
        assertEquals(404, get("/admin/workflows/not-an-id").statusCode());
    }

    @Test
    void cancelAndRetryFailedAskFirstThenActThroughTheServices() {
        Response group = create(obj("type", "group", "name", "cw-act", "jobs", arr(
                job("cw.fail", "cw-act", obj("max_attempts", 1)), job("cw.wait", "cw-later"))));
        String id = path(group, "workflow.id");
        String failing = fetchOne("w", "cw-act");
        nack(failing, error("handler_error", "boom")).then().statusCode(200);
        assertEquals("discarded", Api.state(failing));

        String html = page("/admin/workflows/" + id);
        assertTrue(html.contains("class=\"wf-node wf-discarded\" data-job=\"" + failing + "\""), html);
        assertTrue(html.contains("Retry 1 failed"));
        Response ask = post("/admin/workflows/" + id + "/actions/retry-failed");
        assertEquals(200, ask.statusCode());
        assertTrue(ask.asString().contains("Retry 1 failed job?"), ask.asString());
        assertTrue(ask.asString().contains("name=\"confirm\" value=\"yes\""));
        assertEquals("discarded", Api.state(failing), "asking changed nothing");
        Response done = post("/admin/workflows/" + id + "/actions/retry-failed", "confirm", "yes");
        assertEquals(303, done.statusCode(), done::asString);
        assertEquals("available", Api.state(failing), "re-enqueued as a new run");

        Response askCancel = post("/admin/workflows/" + id + "/actions/cancel");
        assertEquals(200, askCancel.statusCode());
        assertTrue(askCancel.asString().contains("Cancel this workflow?"));
        assertEquals("running", path(Api.request().get("/ojs/v1/workflows/" + id), "workflow.state"));
        post("/admin/workflows/" + id + "/actions/cancel", "confirm", "yes").then().statusCode(303);
        assertEquals("cancelled", path(Api.request().get("/ojs/v1/workflows/" + id), "workflow.state"));
        assertFalse(page("/admin/workflows/" + id).contains("/actions/cancel\""), "no cancel once finished");
        post("/admin/workflows/" + id + "/actions/cancel", "confirm", "yes").then().statusCode(409);
    }
}
