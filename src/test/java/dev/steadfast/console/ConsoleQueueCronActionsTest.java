package dev.steadfast.console;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.Console.flash;
import static dev.steadfast.testsupport.Console.post;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Console;
import dev.steadfast.testsupport.JobsInState;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's queue and cron actions (issue 20, items 5 and 6): a queue's limits set from its page (good and
 * bad values), pause and resume there, throughput on the queues page; a cron schedule's page (words, next five,
 * recent runs) and run now; the retry simulator. Every POST needs the CSRF token.
 */
@QuarkusTest
class ConsoleQueueCronActionsTest {

    @jakarta.inject.Inject
    dev.steadfast.stats.QueueMinuteRollup rollup;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void aQueuesLimitsAreSetFromItsPageThroughTheAdminApisRules() {
        Api.enqueue("mail.send", "mail");
        Response page = Console.get("/admin/queues/mail");
        assertEquals(200, page.statusCode(), page::asString);
        assertTrue(page.asString().contains("No limits"), page.asString());
        assertTrue(page.asString().contains("id=\"limits-form\""));

        Response saved = post("/admin/queues/mail/limits", "concurrency", "3", "rate_limit", "120",
                "rate_period", "PT1M");
        assertEquals(303, saved.statusCode(), saved::asString);
        assertEquals("/admin/queues/mail", java.net.URI.create(saved.header("Location")).getPath());
        assertTrue(flash(saved).contains("at most 3 active at once"), flash(saved));
        Response api = Api.request().get("/ojs/v1/admin/queues/mail/rate-limit");
        assertEquals(3, (Integer) path(api, "concurrency"));
        assertEquals(120, (Integer) path(api, "rate.limit"));
        assertEquals("PT1M", path(api, "rate.period"));
        String shown = Console.get("/admin/queues/mail").asString();
        assertTrue(shown.contains("name=\"concurrency\" value=\"3\""), shown);

        // Emptying a field removes that limit, as null does in the API.
        post("/admin/queues/mail/limits", "concurrency", "", "rate_limit", "120", "rate_period", "PT1M")
                .then().statusCode(303);
        assertNull(path(Api.request().get("/ojs/v1/admin/queues/mail/rate-limit"), "concurrency"));
    }

    @Test
    void badLimitsShowTheMessageOnThePageAndChangeNothing() {
        Api.enqueue("mail.send", "mail");
        post("/admin/queues/mail/limits", "concurrency", "2").then().statusCode(303);
        String[][] bad = {
            {"concurrency", "abc", "'concurrency' must be a whole number"},
            {"concurrency", "-1", "must not be negative"},
            {"concurrency", "99999999999", "'concurrency' must be a whole number"},
            {"rate_limit", "50", "A rate needs both"},
            {"rate_period", "PT1M", "A rate needs both"},
            {"rate_period", "soon", "ISO 8601 duration"},
        };
        for (String[] b : bad) {
            Response r = b[0].equals("rate_period") && b[1].equals("soon")
                    ? post("/admin/queues/mail/limits", "rate_limit", "5", "rate_period", "soon")
                    : post("/admin/queues/mail/limits", b[0], b[1]);
            assertEquals(400, r.statusCode(), b[0] + "=" + b[1] + ": " + r.asString());
            assertTrue(r.asString().contains("id=\"limits-error\""), r.asString());
            assertTrue(r.asString().contains(b[2].replace("'", "&#39;")) || r.asString().contains(b[2]),
                    b[2] + " in " + r.asString());
            assertTrue(r.asString().contains("value=\"" + b[1] + "\""), "the typed value is kept");
        }
        Response big = post("/admin/queues/mail/limits", "rate_limit", "10001", "rate_period", "PT1S");
        assertEquals(400, big.statusCode());
        assertEquals(2, (Integer) path(Api.request().get("/ojs/v1/admin/queues/mail/rate-limit"), "concurrency"),
                "nothing changed");
        assertEquals(400, post("/admin/queues/Bad_Name/limits", "concurrency", "1").statusCode());
        assertEquals(404, Console.get("/admin/queues/nowhere").statusCode());
        assertEquals(403, Console.postWith(Console.request(), null, "/admin/queues/mail/limits", "concurrency", "1")
                .statusCode(), "no CSRF token, no change");
    }

    @Test
    void pauseAndResumeFromTheQueuePageReturnToIt() {
        Api.enqueue("mail.send", "mail");
        Response paused = post("/admin/queues/mail/pause", "back", "queue");
        assertEquals(303, paused.statusCode());
        assertEquals("/admin/queues/mail", java.net.URI.create(paused.header("Location")).getPath());
        assertTrue(Console.get("/admin/queues/mail").asString().contains("badge paused"));
        Response resumed = post("/admin/queues/mail/resume", "back", "queue");
        assertEquals("/admin/queues/mail", java.net.URI.create(resumed.header("Location")).getPath());
        assertEquals("/admin/queues", java.net.URI.create(post("/admin/queues/mail/pause", "back", "elsewhere")
                .header("Location")).getPath(), "back goes to the queue's page or the list, nowhere else");
    }

    @Test
    void theQueuesPageShowsTheLastHoursThroughput() {
        JobsInState.completed("mail", "mail.send");
        JobsInState.completed("mail", "mail.send");
        JobsInState.available("other", "x.y", arr(), null);
        assertTrue(Console.get("/admin/queues").asString().contains("0 finished"), "not rolled up yet");
        // The roll-up counts a minute once it has settled: run it as it would run three minutes from now.
        rollup.runOnce(java.time.Instant.now().plus(java.time.Duration.ofMinutes(3))).await().indefinitely();
        String page = Console.get("/admin/queues").asString();
        assertTrue(page.contains("2 jobs finished in the last hour"), page);
        assertTrue(page.contains("sparkline throughput"));
        assertTrue(page.contains("sparkline latency"));
        assertTrue(page.contains("href=\"/admin/queues/mail\""));

        // Each minute is rolled up once: a second run covers nothing and counts nothing twice.
        assertEquals(0L, rollup.runOnce(java.time.Instant.now().plus(java.time.Duration.ofMinutes(3)))
                .await().indefinitely());
        JobsInState.completed("mail", "mail.send"); // finished in a minute already rolled up: not counted
        rollup.runOnce(java.time.Instant.now().plus(java.time.Duration.ofMinutes(3))).await().indefinitely();
        assertTrue(Console.get("/admin/queues").asString().contains("2 jobs finished in the last hour"));
        assertTrue(Console.get("/admin/queues/mail").asString().contains("2 jobs finished in the last hour"));
    }

    @Test
    void aCronSchedulesPageDescribesItAndRunNowEnqueuesOneOccurrence() {
        send(obj("name", "nightly-report", "cron", "30 2 * * *", "timezone", "Europe/Berlin", "type", "report.build",
                "args", arr("a"), "meta", obj("team", "ops"), "options", obj("queue", "reports")))
                .post("/ojs/v1/cron").then().statusCode(201);
        String list = Console.get("/admin/cron").asString();
        assertTrue(list.contains("at 02:30"), list);
        String page = Console.get("/admin/cron/nightly-report").asString();
        assertTrue(page.contains("at 02:30"), page);
        Matcher next = Pattern.compile("<td>[^<]*CET|<td>[^<]*CEST|<td>[^<]*GMT").matcher(page);
        int times = 0;
        while (next.find()) {
            times++;
        }
        assertEquals(5, times, "the next five occurrences, in the schedule's zone: " + page);
        assertTrue(page.contains("No occurrence recorded yet"));

        Response run = post("/admin/cron/nightly-report/run", "back", "schedule");
        assertEquals(303, run.statusCode(), run::asString);
        assertEquals("/admin/cron/nightly-report", java.net.URI.create(run.header("Location")).getPath());
        Matcher id = Pattern.compile("Enqueued job ([0-9a-f-]{36})").matcher(flash(run));
        assertTrue(id.find(), flash(run));
        Response job = Api.info(id.group(1));
        assertEquals("report.build", path(job, "job.type"));
        assertEquals("reports", path(job, "job.queue"));
        assertEquals("available", path(job, "job.state"));
        assertEquals("nightly-report", path(job, "job.meta.cron_name"));
        assertEquals("ops", path(job, "job.meta.team"));
        assertEquals(1, (Integer) path(Api.request().get("/ojs/v1/cron/nightly-report"), "cron.run_count"));

        String after = Console.get("/admin/cron/nightly-report").asString();
        assertTrue(after.contains("/admin/jobs/" + id.group(1)), "recent runs list the job: " + after);
        assertTrue(after.contains("run now by console"), after);
        assertFalse(after.contains("No occurrence recorded yet"));

        assertEquals(404, post("/admin/cron/nope/run").statusCode());
        assertEquals(404, Console.get("/admin/cron/nope").statusCode());
        assertEquals(403, Console.postWith(Console.request(), null, "/admin/cron/nightly-report/run").statusCode());
        assertEquals(1, (Integer) path(Api.request().get("/ojs/v1/cron/nightly-report"), "cron.run_count"));
    }

    @Test
    void theRetrySimulatorShowsTheServersScheduleOrWhyThePolicyIsRefused() {
        Response ok = Console.request().queryParam("policy", "{\"max_attempts\": 4, \"initial_interval\": \"PT2S\","
                + " \"backoff_coefficient\": 3.0, \"max_interval\": \"PT1M\", \"jitter\": false}").get("/admin/tools/retry");
        assertEquals(200, ok.statusCode(), ok::asString);
        String html = ok.asString();
        assertTrue(html.contains("id=\"retry-schedule\""), html);
        // 2s, 6s, 18s: the domain's exponential backoff, no jitter.
        assertTrue(html.contains("exactly 2s") && html.contains("exactly 6s") && html.contains("exactly 18s"), html);
        assertTrue(html.contains("26s"), "the time after the first failure: " + html);

        String jitter = Console.request().queryParam("policy", "{\"retry\": {\"max_attempts\": 2,"
                + " \"initial_interval\": \"PT10S\", \"jitter\": true}}").get("/admin/tools/retry").asString();
        assertTrue(jitter.contains("5s – 15s"), "a job envelope's retry, with its jitter range: " + jitter);

        Response notJson = Console.request().queryParam("policy", "{max_attempts: 3").get("/admin/tools/retry");
        assertEquals(400, notJson.statusCode());
        assertTrue(notJson.asString().contains("not valid JSON"), notJson.asString());
        Response refused = Console.request().queryParam("policy", "{\"backoff_coefficient\": 0.5}")
                .get("/admin/tools/retry");
        assertEquals(422, refused.statusCode(), refused::asString);
        assertTrue(refused.asString().contains("backoff_coefficient"), refused.asString());
        Response unknown = Console.request().queryParam("policy", "{\"max_tries\": 3}").get("/admin/tools/retry");
        assertEquals(422, unknown.statusCode());
        assertTrue(unknown.asString().contains("max_tries"));
        assertEquals(400, Console.request().queryParam("policy", "[1]").get("/admin/tools/retry").statusCode());
        assertEquals(400, Console.request().queryParam("queue", "Bad Queue").get("/admin/tools/retry").statusCode());
        Response empty = Console.get("/admin/tools/retry");
        assertEquals(200, empty.statusCode());
        assertTrue(empty.asString().contains("id=\"retry-summary\""), "the server's default policy");
    }
}
