package dev.steadfast.console;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Browser;
import dev.steadfast.testsupport.Console;
import dev.steadfast.testsupport.JobsInState;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The console in a real headless Chromium, end to end: a job dead-letters through the API; an operator logs in,
 * finds it, reads its error history and re-enqueues it (through the confirmation); a worker acks it through the
 * API; the page shows it completed. Job data with markup stays text (no alert, the tag visible as text), the
 * overview refreshes itself under the strict CSP, and every page is saved under target/screenshots/. The jobs list:
 * its state tabs, two jobs selected and retried through the confirmation, an args filter typed into the search
 * box, and its live refresh paused across a reload.
 */
@QuarkusTest
class ConsoleBrowserTest {

    /** The pages' timers run this many times as fast (the live refreshes: every 0.5 s instead of 5 s). */
    static final int TIMERS = 10;

    @TestHTTPResource("/")
    URL base;

    @Test
    void anOperatorFindsADeadLetterReadsItsErrorsAndReEnqueuesIt() throws Exception {
        Api.reset();
        ConsoleDemoData.seed();
        String id = JobsInState.deadLetter("billing", "invoice.charge", "CardDeclined",
                "card ending 4242 was declined by the issuer");
        try (Browser browser = Browser.start(base.toString())) {
            browser.speedUpTimers(TIMERS);
            WebDriver d = browser.driver();
            browser.open("/admin/dead-letter");
            assertTrue(browser.path().startsWith("/admin/login"), browser.path());
            browser.screenshot("01-login");
            d.findElement(By.name("username")).sendKeys(Console.USER);
            d.findElement(By.name("password")).sendKeys(Console.PASSWORD);
            browser.clickAndLeave(By.cssSelector("form.login button[type=submit]"));
            browser.waitFor(By.cssSelector("h1"));
            assertEquals("/admin/dead-letter", browser.path());
            browser.screenshot("04-dead-letter");

            browser.clickAndLeave(By.linkText(id));
            browser.waitFor(By.cssSelector(".error-entry"));
            WebElement error = d.findElement(By.cssSelector(".error-entry"));
            assertTrue(error.getText().contains("CardDeclined"), error.getText());
            assertEquals("card ending 4242 was declined by the issuer",
                    error.findElement(By.cssSelector(".emessage")).getText());
            assertTrue(error.findElement(By.cssSelector(".backtrace")).getText().contains("Handler.java:42"));
            browser.screenshot("05-job-dead-letter");

            d.findElement(By.xpath("//button[normalize-space()='Re-enqueue from dead letter']")).click();
            browser.waitFor(By.cssSelector("section.confirm"));
            assertEquals("discarded", Api.state(id), "nothing happens before the confirmation");
            browser.screenshot("06-confirm");
            browser.clickAndLeave(By.cssSelector("section.confirm button[type=submit]"));
            browser.waitFor(By.cssSelector("p.flash"));
            assertTrue(d.findElement(By.cssSelector("p.flash")).getText().contains("available"));
            assertEquals("available", d.findElement(By.cssSelector("h1 .badge")).getText());

            assertEquals(id, fetchOne("browser-worker", "billing"));
            ack(id, "browser-worker", obj("charged", true)).then().statusCode(200);
            d.navigate().refresh();
            browser.waitFor(By.cssSelector("h1 .badge.completed"));
            assertTrue(d.findElement(By.id("result")).getText().contains("\"charged\" : true"));
            assertTrue(d.findElement(By.cssSelector(".timeline")).getText().contains("Completed"));
            browser.screenshot("07-job-completed");

            escapedJobDataStaysText(browser);
            everyOtherPage(browser);
            aWorkflowsGraph(browser);
            jobsList(browser);
            assertEquals(java.util.List.of(), browser.severeLogs(), "no script errors or CSP violations");
            browser.open("/admin/jobs/not-a-job");
            browser.waitFor(By.cssSelector(".error-message"));
            browser.screenshot("12-error");
        }
    }

    private static void escapedJobDataStaysText(Browser browser) throws Exception {
        String xss = JobsInState.available("webhooks", "webhook.deliver", arr("<script>alert(1)</script>"),
                Map.of("note", "<img src=x onerror=alert(2)>"));
        browser.open("/admin/jobs/" + xss);
        browser.waitFor(By.id("args"));
        assertThrows(NoAlertPresentException.class, () -> browser.driver().switchTo().alert());
        assertTrue(browser.driver().findElement(By.id("args")).getText().contains("<script>alert(1)</script>"));
        assertTrue(browser.driver().findElement(By.id("meta")).getText().contains("<img src=x onerror=alert(2)>"));
        assertTrue(browser.driver().findElements(By.cssSelector("main img")).isEmpty(), "no element was created");
        browser.screenshot("08-job-escaped");
    }

    /** The workflows list, one workflow's SVG graph, and a click on a node that opens its job. */
    private static void aWorkflowsGraph(Browser browser) throws Exception {
        io.restassured.response.Response created = Api.send(obj("type", "chain", "name", "browser-chain", "steps",
                arr(obj("type", "wf.first", "args", arr(), "options", obj("queue", "wf-browser")),
                        obj("type", "group", "name", "fan-out", "jobs", arr(
                                obj("type", "wf.a", "args", arr(), "options", obj("queue", "wf-browser")),
                                obj("type", "wf.b", "args", arr(), "options", obj("queue", "wf-browser")))),
                        obj("type", "wf.last", "args", arr(), "options", obj("queue", "wf-browser")))))
                .post("/ojs/v1/workflows");
        assertEquals(201, created.statusCode(), created::asString);
        String wf = path(created, "workflow.id");
        String first = path(created, "workflow.steps[0].job_id");
        WebDriver d = browser.driver();
        browser.open("/admin/workflows");
        browser.waitFor(By.cssSelector("table.workflows"));
        browser.screenshot("13-workflows");
        browser.clickAndLeave(By.linkText(wf));
        browser.waitFor(By.cssSelector(".wf-graph svg"));
        assertEquals("/admin/workflows/" + wf, browser.path());
        assertEquals(4, d.findElements(By.cssSelector("a.wf-node")).size(), "every job drawn");
        browser.screenshot("14-workflow");
        browser.clickAndLeave(By.cssSelector("a.wf-node[data-job='" + first + "'] rect"));
        browser.waitFor(By.cssSelector("#workflow"));
        assertEquals("/admin/jobs/" + first, browser.path());
    }

    private static void everyOtherPage(Browser browser) throws Exception {
        WebDriver d = browser.driver();
        browser.open("/admin");
        browser.waitFor(By.cssSelector("#live .cards"));
        String before = d.findElement(By.cssSelector("#live p.muted")).getText();
        browser.waitUpTo(15).until(ExpectedConditions.not(
                ExpectedConditions.textToBe(By.cssSelector("#live p.muted"), before)));
        browser.screenshot("02-overview");
        browser.open("/admin/queues");
        browser.waitFor(By.cssSelector("table.grid"));
        browser.screenshot("03-queues");
        browser.open("/admin/jobs");
        browser.waitFor(By.cssSelector("table.jobs"));
        browser.screenshot("09-jobs");
        browser.open("/admin/jobs?state=retryable&q=timed+out");
        browser.waitFor(By.cssSelector("table.jobs"));
        browser.screenshot("10-jobs-search");
        browser.open("/admin/workers");
        browser.waitFor(By.cssSelector("table.grid"));
        browser.screenshot("11-workers");
        errorGroups(browser);
    }

    /** The jobs list: tabs, live refresh and its pause, select two jobs and retry them, an args filter. */
    private static void jobsList(Browser browser) throws Exception {
        WebDriver d = browser.driver();
        String a = JobsInState.retryable("browser-bulk", "report.build", "Timeout", "report timed out");
        String b = JobsInState.retryable("browser-bulk", "report.build", "Timeout", "report timed out");
        JobsInState.scheduled("browser-bulk", "report.build");
        String edinburgh = JobsInState.available("browser-args", "user.sync",
                arr(obj("user_id", 4242, "address", obj("city", "Edinburgh"))), Map.of());
        JobsInState.available("browser-args", "user.sync",
                arr(obj("user_id", 4243, "address", obj("city", "Glasgow"))), Map.of());

        browser.open("/admin/jobs?queue=browser-bulk");
        browser.waitFor(By.cssSelector("nav.state-tabs"));
        d.findElement(By.cssSelector("nav.state-tabs a[data-state='retryable']")).click();
        browser.waitFor(By.cssSelector("nav.state-tabs a[data-state='retryable'][aria-current='page']"));
        assertTrue(browser.driver().getCurrentUrl().contains("state=retryable"));
        assertEquals("retryable 2", d.findElement(By.cssSelector("nav.state-tabs a[aria-current='page']")).getText());
        assertEquals(2, d.findElements(By.cssSelector("table.jobs tbody tr")).size());
        browser.waitUpTo(15).until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#jobs-bulk[data-refreshed]")));
        browser.screenshot("15-jobs-tabs");

        d.findElement(By.cssSelector("[data-live-toggle]")).click();
        assertEquals("Resume live refresh", d.findElement(By.cssSelector("[data-live-toggle]")).getText());
        d.navigate().refresh();
        browser.waitFor(By.cssSelector("[data-live-toggle][aria-pressed='true']"));
        assertEquals("Live refresh paused.", d.findElement(By.cssSelector("[data-live-status]")).getText());
        Thread.sleep(7000 / TIMERS); // 7 s of the page's timers: a live refresh (every 5 s) would have come
        assertTrue(d.findElements(By.cssSelector("#jobs-bulk[data-refreshed]")).isEmpty(),
                "a paused page is not refreshed, even after a reload");

        d.findElement(By.cssSelector("input[name=id][value='" + a + "']")).click();
        d.findElement(By.cssSelector("input[name=id][value='" + b + "']")).click();
        browser.screenshot("16-jobs-selected");
        d.findElement(By.cssSelector("button[value='retry-selected']")).click();
        browser.waitFor(By.cssSelector("section.confirm"));
        assertEquals("Retry 2 jobs?", d.findElement(By.cssSelector("section.confirm h1")).getText());
        assertEquals("retryable", Api.state(a), "nothing happens before the confirmation");
        browser.screenshot("17-jobs-confirm");
        browser.clickAndLeave(By.cssSelector("section.confirm button[type=submit]"));
        browser.waitFor(By.cssSelector("p.flash"));
        assertEquals("Retried 2 jobs.", d.findElement(By.cssSelector("p.flash")).getText());
        assertEquals("available", Api.state(a));
        assertEquals("available", Api.state(b));
        d.findElement(By.cssSelector("[data-live-toggle]")).click();
        assertEquals("Pause live refresh", d.findElement(By.cssSelector("[data-live-toggle]")).getText());

        browser.open("/admin/jobs");
        browser.waitFor(By.name("q"));
        d.findElement(By.name("q")).sendKeys("args.address.city:Edinburgh");
        browser.clickAndLeave(By.cssSelector("form.filters button[type=submit]"));
        browser.waitFor(By.cssSelector("table.jobs"));
        assertEquals(1, d.findElements(By.cssSelector("table.jobs tbody tr")).size());
        // live refresh is on again and replaces the rows every tick: read the row by its locator, not a found element
        // (which a refresh between finding and reading it leaves stale)
        browser.waitUpTo(5).until(ExpectedConditions.textToBePresentInElementLocated(
                By.cssSelector("table.jobs tbody tr"), edinburgh));
        browser.waitUpTo(5).until(ExpectedConditions.textToBePresentInElementLocated(
                By.cssSelector("table.jobs tbody tr .args-cell"), "\"city\": \"Edinburgh\""));
        browser.screenshot("18-jobs-args-filter");
    }

    /** The errors page groups two dead letters with one cause; the group's page retries both after a confirmation. */
    private static void errorGroups(Browser browser) throws Exception {
        WebDriver d = browser.driver();
        String a = JobsInState.deadLetter("payments", "invoice.charge", "GatewayTimeout", "gateway 7 timed out after 30s");
        String b = JobsInState.deadLetter("payments", "invoice.refund", "GatewayTimeout", "gateway 12 timed out after 31s");
        browser.open("/admin/errors");
        browser.waitFor(By.cssSelector("table.error-groups"));
        assertTrue(d.findElement(By.cssSelector("table.error-groups")).getText()
                .contains("gateway <n> timed out after <n>s"));
        assertTrue(!d.findElements(By.cssSelector("table.error-groups svg.sparkline path[d^=\"M\"]")).isEmpty());
        browser.screenshot("13-errors");
        browser.clickAndLeave(By.linkText("GatewayTimeout"));
        browser.waitFor(By.cssSelector("table.grid"));
        assertTrue(!d.findElements(By.linkText(a)).isEmpty() && !d.findElements(By.linkText(b)).isEmpty());
        browser.screenshot("14-error-group");
        d.findElement(By.xpath("//button[normalize-space()='Retry 2…']")).click();
        browser.waitFor(By.cssSelector("section.confirm"));
        assertTrue(d.findElement(By.cssSelector("section.confirm h1")).getText().contains("Retry 2 jobs"));
        assertEquals("discarded", Api.state(a), "nothing happens before the confirmation");
        browser.clickAndLeave(By.cssSelector("section.confirm button[type=submit]"));
        browser.waitFor(By.cssSelector("p.flash"));
        assertEquals("Retried 2 jobs.", d.findElement(By.cssSelector("p.flash")).getText());
        assertEquals("available", Api.state(a));
        assertEquals("available", Api.state(b));
    }

    /**
     * Queues, cron and comfort (issue 20, items 5 and 6): a queue's concurrency edited from its page, cron "run now"
     * creating a job, the dark-mode toggle changing the page's colours (and kept across pages), j/k moving the
     * highlighted row and Enter opening it, '?' showing the shortcuts, and the retry simulator's schedule.
     */
    @Test
    void anOperatorTunesAQueueRunsACronAndUsesTheComforts() throws Exception {
        Api.reset();
        Api.enqueue("mail.send", "mail");
        Api.enqueue("pdf.render", "pdf");
        Api.send(obj("name", "digest", "cron", "0 7 * * 1-5", "type", "digest.send", "args", arr(),
                "options", obj("queue", "mail"))).post("/ojs/v1/cron").then().statusCode(201);
        try (Browser browser = Browser.start(base.toString())) {
            WebDriver d = browser.driver();
            browser.open("/admin/login");
            d.findElement(By.name("username")).sendKeys(Console.USER);
            d.findElement(By.name("password")).sendKeys(Console.PASSWORD);
            browser.clickAndLeave(By.cssSelector("form.login button[type=submit]"));
            browser.waitFor(By.cssSelector("h1"));

            // A queue's concurrency, edited on its page: a bad value is explained, a good one saved.
            browser.open("/admin/queues/mail");
            browser.waitFor(By.id("limits-form"));
            WebElement concurrency = d.findElement(By.name("concurrency"));
            concurrency.clear();
            concurrency.sendKeys("lots");
            browser.clickAndLeave(By.cssSelector("#limits-form button[type=submit]"));
            browser.waitFor(By.id("limits-error"));
            assertTrue(d.findElement(By.id("limits-error")).getText().contains("whole number"));
            concurrency = d.findElement(By.name("concurrency"));
            concurrency.clear();
            concurrency.sendKeys("4");
            browser.clickAndLeave(By.cssSelector("#limits-form button[type=submit]"));
            browser.waitFor(By.cssSelector("p.flash"));
            assertTrue(d.findElement(By.cssSelector("p.flash")).getText().contains("at most 4 active at once"));
            assertEquals(4, (Integer) path(Api.request().get("/ojs/v1/admin/queues/mail/rate-limit"), "concurrency"));
            browser.screenshot("20-queue");

            // Cron: the schedule's page in words, run now creates a job that the recent runs link to.
            browser.open("/admin/cron/digest");
            browser.waitFor(By.id("cron-next"));
            assertEquals(5, d.findElements(By.cssSelector("#cron-next tbody tr")).size());
            assertTrue(d.findElement(By.cssSelector("dd.cron-words")).getText().contains("Monday and Friday"));
            browser.clickAndLeave(By.id("cron-run-now"));
            browser.waitFor(By.cssSelector("#cron-runs a.mono"));
            String job = d.findElement(By.cssSelector("#cron-runs a.mono")).getText();
            assertEquals("digest", path(Api.info(job), "job.meta.cron_name"));
            assertEquals("available", Api.state(job));
            browser.screenshot("21-cron-schedule");

            // Dark mode: the toggle changes the page's colours and is remembered on the next page.
            browser.open("/admin/queues");
            browser.waitFor(By.cssSelector("table[data-list]"));
            String light = d.findElement(By.tagName("body")).getCssValue("background-color");
            String scheme = d.findElement(By.tagName("html")).getAttribute("data-theme");
            d.findElement(By.id("theme-toggle")).click();
            String flipped = "dark".equals(scheme) ? "light" : "dark";
            assertEquals(flipped, d.findElement(By.tagName("html")).getAttribute("data-theme"));
            assertTrue(!light.equals(d.findElement(By.tagName("body")).getCssValue("background-color")),
                    "the background changed from " + light);
            browser.open("/admin/cron");
            browser.waitFor(By.cssSelector("table[data-list]"));
            assertEquals(flipped, d.findElement(By.tagName("html")).getAttribute("data-theme"), "kept in localStorage");
            if (!"dark".equals(flipped)) {
                d.findElement(By.id("theme-toggle")).click();
            }
            browser.open("/admin/queues");
            browser.waitFor(By.cssSelector("table[data-list]"));
            browser.screenshot("22-queues-dark");

            // Shortcuts: j moves the highlight down, k back up, Enter opens the highlighted row; ? lists them.
            WebElement body = d.findElement(By.tagName("body"));
            body.sendKeys("j");
            java.util.List<WebElement> rows = d.findElements(By.cssSelector("table[data-list] tbody tr"));
            assertTrue(rows.get(0).getAttribute("class").contains("kbd-current"));
            body.sendKeys("j");
            assertTrue(rows.get(1).getAttribute("class").contains("kbd-current"));
            assertTrue(!rows.get(0).getAttribute("class").contains("kbd-current"));
            body.sendKeys("k");
            assertTrue(rows.get(0).getAttribute("class").contains("kbd-current"));
            body.sendKeys("?");
            assertTrue(d.findElement(By.id("shortcuts")).isDisplayed());
            browser.screenshot("23-shortcuts");
            d.findElement(By.cssSelector("#shortcuts button")).click();
            body.sendKeys(org.openqa.selenium.Keys.ENTER);
            browser.waitUpTo(10).until(ExpectedConditions.urlContains("/admin/queues/mail"));

            // The retry simulator: the schedule the server computes, and the message for a bad policy.
            browser.open("/admin/tools/retry");
            browser.waitFor(By.name("policy"));
            d.findElement(By.name("policy")).sendKeys("{\"max_attempts\": 4, \"initial_interval\": \"PT2S\","
                    + " \"jitter\": true}");
            browser.clickAndLeave(By.cssSelector("#retry-form button[type=submit]"));
            browser.waitFor(By.id("retry-schedule"));
            assertEquals(3, d.findElements(By.cssSelector("#retry-schedule tbody tr")).size());
            assertTrue(d.findElement(By.id("retry-schedule")).getText().contains("1s – 3s"));
            browser.screenshot("24-retry-simulator");
            WebElement policy = d.findElement(By.name("policy"));
            policy.clear();
            policy.sendKeys("{\"backoff_coefficient\": 0.5}");
            browser.clickAndLeave(By.cssSelector("#retry-form button[type=submit]"));
            browser.waitFor(By.id("retry-error"));
            assertTrue(d.findElement(By.id("retry-error")).getText().contains("backoff_coefficient"));
            assertEquals(java.util.List.of(), browser.severeLogs().stream()
                    .filter(m -> !m.contains("responded with a status of 4")).toList(),
                    "no script errors or CSP violations (the refused values' 400 and 422 aside)");
        }
    }
}
