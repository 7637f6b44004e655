package dev.steadfast.console;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.Console.get;
import static dev.steadfast.testsupport.JsonPaths.at;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JobsInState;
import dev.steadfast.testsupport.JsonPaths;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each console page renders real data as HTML: status, content type, key content and the console's headers. */
@QuarkusTest
class ConsolePagesTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static Response page(String path) {
        Response r = get(path);
        assertEquals(200, r.statusCode(), () -> path + " answered " + r.statusCode() + ": " + r.asString());
        assertTrue(r.contentType().startsWith("text/html"), r.contentType());
        assertTrue(r.header("Content-Security-Policy").contains("script-src 'self'"));
        assertEquals("no-store", r.header("Cache-Control"));
        return r;
    }

    @Test
    void overviewShowsDepthDeadLettersAndTheChart() {
        enqueue("ov.t", "ov-mail");
        JobsInState.completed("ov-done", "ov.t");
        JobsInState.deadLetter("ov-dl", "ov.t", "SmtpError", "relay refused");
        String html = page("/admin").asString();
        assertTrue(html.contains("<h1>Overview</h1>"));
        assertTrue(html.contains("ov-mail") && html.contains("ov-done") && html.contains("ov-dl"));
        assertTrue(html.contains("<svg"), "the throughput chart");
        assertTrue(html.contains("1 completed, 1 failed for good"), html);
        assertTrue(html.contains("data-refresh=\"/admin/overview/live\""));
        String live = page("/admin/overview/live").asString();
        assertTrue(live.contains("ov-mail") && !live.contains("<html"), "the live fragment is not a whole page");
    }

    @Test
    void queuesPageShowsDepthAndThePauseSwitch() {
        enqueue("q.t", "qp-a");
        String html = page("/admin/queues").asString();
        assertTrue(html.contains("qp-a"));
        assertTrue(html.contains("action=\"/admin/queues/qp-a/pause\""));
    }

    @Test
    void jobsPageListsFiltersAndSearches() {
        String a = JobsInState.available("jl-a", "report.build", arr(Map.of("customer", "globex-42")), Map.of());
        String b = JobsInState.retryable("jl-b", "mail.send", "SmtpTimeout", "timed out after 30s");
        String all = page("/admin/jobs").asString();
        assertTrue(all.contains(a) && all.contains(b));
        String retryable = page("/admin/jobs?state=retryable").asString();
        assertTrue(retryable.contains(b) && !retryable.contains(a));
        assertTrue(retryable.contains("SmtpTimeout"), "the last error is shown");
        String search = page("/admin/jobs?q=globex").asString();
        assertTrue(search.contains(a) && !search.contains(b));
        assertTrue(page("/admin/jobs?type=mail.*").asString().contains(b));
        assertTrue(page("/admin/jobs?q=nothing-like-this").asString().contains("No job matches this filter."));
        get("/admin/jobs?q=" + a).then().statusCode(303).header("Location", containsString("/admin/jobs/" + a));
        assertTrue(page("/admin/jobs?q=0195aaaa-aaaa-7aaa-8aaa-aaaaaaaaaaaa").asString().contains("No job has id"));
    }

    @Test
    void jobsPagesAreKeysetLinked() {
        for (int i = 0; i < 55; i++) {
            enqueue("p.t", "jl-pages");
        }
        String first = page("/admin/jobs?queue=jl-pages").asString();
        assertTrue(first.contains("rel=\"next\""));
        String next = first.replaceAll("(?s).*rel=\"next\" href=\"([^\"]+)\".*", "$1").replace("&amp;", "&");
        String second = page(next).asString();
        assertEquals(5, second.split("class=\"mono\" href=\"/admin/jobs/").length - 1);
        assertTrue(second.contains("rel=\"prev\""));
    }

    @Test
    void jobPageShowsEnvelopeTimelineErrorsAndRetrySchedule() {
        String id = JobsInState.deadLetter("jd-q", "invoice.charge", "CardDeclined", "card was declined");
        String html = page("/admin/jobs/" + id).asString();
        assertTrue(html.contains("invoice.charge"));
        assertTrue(html.contains("card was declined"));
        assertTrue(html.contains("at app.Handler.run(Handler.java:42)"), "the backtrace");
        assertTrue(html.contains("Dead-lettered"), "the timeline");
        assertTrue(html.contains("Re-enqueue from dead letter"));
        assertTrue(html.contains("Delay before each retry"));
        assertTrue(html.contains("&quot;on_exhaustion&quot; : &quot;dead_letter&quot;"), "the effective policy");
        String retryable = JobsInState.retryable("jd-r", "x.y", "E", "later");
        String r = page("/admin/jobs/" + retryable).asString();
        assertTrue(r.contains("Next attempt due") && r.contains("Retry now"));
        assertTrue(r.contains("<td class=\"num\">2</td><td class=\"num\">1h</td><td>exactly</td>"), "schedule rows");
    }

    @Test
    void aWorkflowJobsPageShowsItsWorkflow() {
        Map<String, Object> step = Api.obj("type", "wf.step", "args", Api.arr(), "options", Api.obj("queue", "wf-page"));
        io.restassured.response.Response created = Api.send(Api.obj("type", "chain", "name", "nightly-etl",
                "steps", Api.arr(step, step))).post("/ojs/v1/workflows");
        assertEquals(201, created.statusCode(), created::asString);
        String first = path(created, "workflow.steps[0].job_id");
        String second = path(created, "workflow.steps[1].job_id");
        String html = page("/admin/jobs/" + first).asString();
        assertTrue(html.contains("id=\"workflow\""), "the workflow view");
        assertTrue(html.contains("nightly-etl") && html.contains(JsonPaths.<String>path(created, "workflow.id")));
        assertTrue(html.contains("step 0") && html.contains("step 1"));
        assertTrue(html.contains("href=\"/admin/jobs/" + second + "\""), "a link to the other step");
        assertTrue(html.contains("0 of 2 completed"));
        assertTrue(!page("/admin/jobs/" + Api.enqueue("plain.job", "wf-page")).asString().contains("id=\"workflow\""),
                "a job outside a workflow has no workflow view");
        io.restassured.response.Response nested = Api.send(Api.obj("type", "chain", "steps", Api.arr(step,
                Api.obj("type", "group", "jobs", Api.arr(step))))).post("/ojs/v1/workflows");
        assertEquals(201, nested.statusCode(), nested::asString);
        String outer = page("/admin/jobs/" + JsonPaths.<String>path(nested, "workflow.steps[0].job_id")).asString();
        assertTrue(outer.contains("workflow " + JsonPaths.<String>path(nested, "workflow.steps[1].workflow_id"))
                && outer.contains("<td class=\"mono\">group</td>"), "a nested workflow's line");
    }

    @Test
    void jobPageShowsTheCurrentAttemptsProgress() {
        String id = enqueue("pg.t", "pg-q");
        assertEquals(id, Api.fetchOne("w-pg", "pg-q"));
        String silent = page("/admin/jobs/" + id).asString();
        assertTrue(silent.contains("id=\"progress\"") && silent.contains("No progress reported in this attempt yet."),
                "an active job that reported nothing says so");
        Api.send(obj("progress", 0.42, "message", "<b>rows</b> 420 of 1000", "data", obj("rows_done", 420),
                "checkpoint", obj("offset", 420))).put("/ojs/v1/jobs/" + id + "/progress").then().statusCode(200);
        String html = page("/admin/jobs/" + id).asString();
        assertTrue(html.contains("<progress max=\"1\" value=\"0.4200\""), html);
        assertTrue(html.contains("<strong>42.0%</strong>"), "the percentage");
        assertTrue(html.contains("&lt;b&gt;rows&lt;/b&gt; 420 of 1000"), "the message, escaped");
        assertTrue(html.contains("&quot;rows_done&quot; : 420") && html.contains("&quot;offset&quot; : 420"),
                "data and checkpoint");
        assertTrue(html.contains("(attempt 1)") && html.contains("Reported <time datetime=\""), "attempt and time");
        Api.send(obj("progress", 2.5)).put("/ojs/v1/jobs/" + id + "/progress").then().statusCode(200);
        assertTrue(page("/admin/jobs/" + id).asString().contains("<strong>100.0%</strong>"), "clamped to 1.0");
        Api.ack(id).then().statusCode(200);
        String done = page("/admin/jobs/" + id).asString();
        assertTrue(done.contains("<strong>100.0%</strong>") && done.contains("completed"), "kept once completed");
        String dataOnly = enqueue("pg.t", "pg-data");
        assertEquals(dataOnly, Api.fetchOne("w-pg", "pg-data"));
        Api.send(obj("data", obj("phase", "download"))).put("/ojs/v1/jobs/" + dataOnly + "/progress").then()
                .statusCode(200);
        String d = page("/admin/jobs/" + dataOnly).asString();
        assertTrue(d.contains("No percentage reported, only data.") && !d.contains("<progress"), d);
        assertTrue(!page("/admin/jobs/" + enqueue("pg.t", "pg-idle")).asString().contains("id=\"progress\""),
                "a job that never ran has no progress panel");
    }

    @Test
    void deadLetterPageFiltersByErrorType() {
        String a = JobsInState.deadLetter("dlp-a", "t.a", "DbError", "deadlock");
        String b = JobsInState.deadLetter("dlp-b", "t.b", "HttpError", "502");
        String all = page("/admin/dead-letter").asString();
        assertTrue(all.contains(a) && all.contains(b) && all.contains("<option value=\"DbError\""));
        String db = page("/admin/dead-letter?error_type=DbError").asString();
        assertTrue(db.contains(a) && !db.contains(b));
    }

    @Test
    void workersPageListsWorkersThatFetched() {
        Api.send(obj("worker_id", "worker-on-host-7", "active_jobs", arr())).post("/ojs/v1/workers/heartbeat")
                .then().statusCode(200);
        assertTrue(page("/admin/workers").asString().contains("worker-on-host-7"));
    }

    @Test
    void jobDataIsEscaped() {
        String id = JobsInState.available("xss", "x.y", arr("<script>alert(1)</script>"),
                Map.of("note", "<img src=x onerror=alert(2)>"));
        for (String path : new String[] {"/admin/jobs/" + id, "/admin/jobs?queue=xss", "/admin/jobs?q=script"}) {
            String html = page(path).asString();
            assertTrue(!html.contains("<script>alert(1)</script>") && !html.contains("<img src=x"), path);
        }
        assertTrue(page("/admin/jobs/" + id).asString().contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    }

    @Test
    void badRequestsGetTheHtmlErrorPage() {
        for (String[] c : new String[][] {{"/admin/jobs/not-a-job", "404"}, {"/admin/no-such-page", "404"},
                {"/admin/jobs?state=sleeping", "400"}, {"/admin/jobs?from=yesterday", "400"},
                {"/admin/jobs?q=ab", "400"}, {"/admin/jobs?after=bogus", "400"},
                {"/admin/dead-letter?queue=Bad_Queue", "400"}, {"/admin/jobs/" + Api.newUuidV7(), "404"}}) {
            Response r = get(c[0]);
            assertEquals(Integer.parseInt(c[1]), r.statusCode(), c[0] + ": " + r.asString());
            r.then().contentType(startsWith("text/html")).body(containsString("<h1>" + c[1]))
                    .body(not(containsString("\"error\"")));
        }
        get("/ojs/v1/jobs/not-a-job").then().statusCode(404).contentType(Api.OJS_JSON);
    }

    @Test
    void nothingChangesOnGet() {
        String id = JobsInState.retryable("get-q", "x.y", "E", "later");
        JobsInState.deadLetter("get-q", "x.y", "E", "dead");
        for (String path : new String[] {"/admin/jobs/" + id + "/actions/retry?confirm=yes",
                "/admin/jobs/" + id + "/actions/delete?confirm=yes", "/admin/queues/get-q/pause",
                "/admin/dead-letter/bulk?op=delete-matching&confirm=yes"}) {
            Response r = get(path);
            assertTrue(r.statusCode() == 404 || r.statusCode() == 405, path + " answered " + r.statusCode());
            assertTrue(r.contentType().startsWith("text/html"), path);
        }
        assertEquals("retryable", state(id));
        assertEquals(Boolean.FALSE, path(Api.request().get("/ojs/v1/admin/queues/get-q"), "paused"));
        Api.request().get("/ojs/v1/dead-letter/stats").then().body(at("total", org.hamcrest.Matchers.equalTo(1)));
    }
}
