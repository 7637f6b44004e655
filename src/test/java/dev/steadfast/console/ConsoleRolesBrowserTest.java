package dev.steadfast.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Browser;
import dev.steadfast.testsupport.Console;
import dev.steadfast.testsupport.JobsInState;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * Roles and the audit log in a real headless Chromium: a read-only user logs in, sees the dead letters and a job
 * without a single action control, and a forged action form posted from that session is refused with the console's
 * 403 page, changing nothing; an operator then re-enqueues every matching dead letter from the same page (through
 * the confirmation) and finds that change, with its job count, on /admin/audit. Screenshots under
 * target/screenshots/ (20-*).
 */
@QuarkusTest
class ConsoleRolesBrowserTest {

    @TestHTTPResource("/")
    URL base;

    private static void login(Browser browser, String user) {
        WebDriver d = browser.driver();
        browser.waitFor(By.name("username"));
        d.findElement(By.name("username")).sendKeys(user);
        d.findElement(By.name("password")).sendKeys(Console.PASSWORD);
        browser.clickAndLeave(By.cssSelector("form.login button[type=submit]"));
        browser.waitFor(By.cssSelector("h1"));
    }

    @Test
    void aReadOnlyUserIsRefusedAndAnOperatorsBulkRetryIsAudited() throws Exception {
        Api.reset();
        String a = JobsInState.deadLetter("roles-mail", "mail.send", "SmtpTimeout", "smtp 1 timed out");
        String b = JobsInState.deadLetter("roles-mail", "mail.send", "SmtpTimeout", "smtp 2 timed out");
        try (Browser browser = Browser.start(base.toString())) {
            WebDriver d = browser.driver();
            browser.open("/admin/dead-letter?queue=roles-mail");
            login(browser, "viewer");
            assertEquals("/admin/dead-letter?queue=roles-mail", browser.path());
            assertTrue(d.findElement(By.cssSelector(".who")).getText().contains("(readonly)"));
            assertTrue(!d.findElements(By.linkText(a)).isEmpty(), "a read-only user sees the dead letters");
            assertEquals(List.of(), d.findElements(By.cssSelector("button[name=op]")), "no bulk action");
            assertEquals(List.of(), d.findElements(By.cssSelector("input[type=checkbox][name=id]")), "no selection");
            browser.screenshot("20-readonly-dead-letter");
            browser.open("/admin/jobs/" + a);
            browser.waitFor(By.cssSelector(".error-entry"));
            assertEquals(List.of(), d.findElements(By.cssSelector(".actions form")), "no action on the job page");
            assertEquals(List.of(), browser.severeLogs());

            // A forged action from this session, with its valid CSRF token: the server refuses it.
            ((JavascriptExecutor) d).executeScript("""
                    const f = document.createElement('form');
                    f.method = 'post'; f.action = '/admin/dead-letter/bulk';
                    for (const [k, v] of [['_csrf', document.querySelector('input[name=_csrf]').value],
                            ['op', 'retry-matching'], ['queue', 'roles-mail'], ['confirm', 'yes']]) {
                        const i = document.createElement('input'); i.type = 'hidden'; i.name = k; i.value = v;
                        f.appendChild(i);
                    }
                    document.body.appendChild(f); f.submit();""");
            browser.waitFor(By.cssSelector(".error-message"));
            assertTrue(d.findElement(By.cssSelector("h1")).getText().contains("Forbidden"),
                    d.findElement(By.cssSelector("h1")).getText());
            assertTrue(d.findElement(By.cssSelector(".error-message")).getText().contains("readonly"));
            browser.screenshot("21-readonly-refused");
            assertEquals("discarded", Api.state(a), "nothing changed");
            assertEquals("discarded", Api.state(b));

            browser.open("/admin/workers");
            d.findElement(By.cssSelector("form.logout button")).click();
            login(browser, "oper");
            browser.open("/admin/dead-letter?queue=roles-mail");
            browser.waitFor(By.cssSelector("button[value=retry-matching]"));
            assertEquals(List.of(), d.findElements(By.cssSelector("button[value=delete-matching]")),
                    "an operator does not delete");
            d.findElement(By.cssSelector("button[value=retry-matching]")).click();
            browser.waitFor(By.cssSelector("section.confirm"));
            assertEquals("discarded", Api.state(a), "nothing happens before the confirmation");
            browser.clickAndLeave(By.cssSelector("section.confirm button[type=submit]"));
            browser.waitFor(By.cssSelector("p.flash"));
            assertEquals("Re-enqueued 2 jobs.", d.findElement(By.cssSelector("p.flash")).getText());
            assertEquals("available", Api.state(a));

            browser.open("/admin/audit");
            browser.waitFor(By.cssSelector("table.audit"));
            WebElement newest = d.findElement(By.cssSelector("table.audit tbody tr"));
            String row = newest.getText();
            assertTrue(row.contains("oper") && row.contains("dead-letter.retry-matching") && row.contains("roles-mail"),
                    row);
            assertEquals("2", newest.findElement(By.cssSelector("td.num")).getText());
            assertTrue(row.contains("ok"), row);
            assertTrue(d.findElement(By.cssSelector("table.audit")).getText().contains("refused"),
                    "the read-only user's attempt is there too");
            browser.screenshot("22-audit");
            d.findElement(By.name("actor")).sendKeys("viewer");
            browser.clickAndLeave(By.cssSelector("form.filters button[type=submit]"));
            browser.waitFor(By.cssSelector("table.audit"));
            for (WebElement r : d.findElements(By.cssSelector("table.audit tbody tr"))) {
                assertTrue(r.getText().contains("viewer"), r.getText());
            }
        }
    }
}
