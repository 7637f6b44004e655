package dev.steadfast.testsupport;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium for browser tests: the Debian {@code chromium} and {@code chromium-driver} packages,
 * a fresh profile directory per run, no background network traffic. When either is missing, tests skip (a JUnit
 * assumption) with a message naming both packages to install; with {@code -Dsteadfast.browser.required=true}
 * (.ci/run, which installs both) they fail instead, so CI never passes without the browser test. Screenshots go to
 * target/screenshots/.
 */
public final class Browser implements AutoCloseable {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    public static final Path SCREENSHOTS = Path.of("target", "screenshots");
    public static final int WIDTH = 1366;

    private final Path profile;
    private final ChromeDriver driver;
    private final String base;

    private Browser(String base) throws IOException {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.profile = Files.createTempDirectory("steadfast-chromium-");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
                "--window-size=" + WIDTH + ",900", "--lang=en-US");
        o.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        this.driver = new ChromeDriver(service, o);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    }

    /** Starts Chromium, or skips (fails, when required) the test when it or its driver is not installed. */
    public static Browser start(String baseUrl) throws IOException {
        String missing = missing(CHROMIUM, CHROMEDRIVER);
        if (missing != null && Boolean.getBoolean("steadfast.browser.required")) {
            org.junit.jupiter.api.Assertions.fail(missing);
        }
        Assumptions.assumeTrue(missing == null, missing);
        return new Browser(baseUrl);
    }

    /** What to install when {@code chromium} or {@code driver} is not an executable, else null. */
    static String missing(Path chromium, Path driver) {
        java.util.List<String> absent = Stream.of(chromium, driver).filter(p -> !Files.isExecutable(p))
                .map(Path::toString).toList();
        return absent.isEmpty() ? null : "The console's browser test needs Chromium and its driver; " + absent
                + (absent.size() == 1 ? " is" : " are") + " missing. Install both: apt-get install chromium chromium-driver";
    }

    public WebDriver driver() {
        return driver;
    }

    /**
     * Runs the pages' timers ({@code setInterval}, {@code setTimeout}) {@code times} as fast from the next page on:
     * the console's live refreshes, every 5 s, then come every 5 s / {@code times}, and a test waits for them (or for
     * their absence) that much shorter, as server tests move the {@code TestClock} instead of waiting. The script is
     * installed through DevTools before any of the page's own, which the pages' CSP does not govern.
     */
    public void speedUpTimers(int times) {
        driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", "(function (k) {"
                + " var si = window.setInterval, st = window.setTimeout;"
                + " window.setInterval = function (f, ms) { var a = [].slice.call(arguments); a[1] = (ms || 0) / k;"
                + " return si.apply(window, a); };"
                + " window.setTimeout = function (f, ms) { var a = [].slice.call(arguments); a[1] = (ms || 0) / k;"
                + " return st.apply(window, a); };"
                + " })(" + times + ");"));
    }

    public void open(String path) {
        driver.get(base + path);
    }

    public String path() {
        String url = driver.getCurrentUrl();
        return url.startsWith(base) ? url.substring(base.length()) : url;
    }

    public WebDriverWait waitUpTo(int seconds) {
        return new WebDriverWait(driver, Duration.ofSeconds(seconds));
    }

    public void waitFor(By by) {
        waitUpTo(10).until(ExpectedConditions.presenceOfElementLocated(by));
    }

    /**
     * Clicks what {@code by} finds (a form's submit button, a link) and waits until the page it was on is gone: a
     * wait for an element the next page shares (an h1, a table) would otherwise return at once, on the old page.
     */
    public void clickAndLeave(By by) {
        WebElement e = driver.findElement(by);
        e.click();
        waitUpTo(10).until(d -> gone(e));
    }

    /**
     * Whether {@code e} is no longer in the page: stale, or (as ChromeDriver answers for an element whose document is
     * being replaced) any other refusal to look at it.
     */
    private static boolean gone(WebElement e) {
        try {
            e.isEnabled();
            return false;
        } catch (WebDriverException x) { // StaleElementReferenceException among them
            return true;
        }
    }

    /** Saves the whole page (the window is stretched to the page's height first) as target/screenshots/name.png. */
    public void screenshot(String name) throws IOException {
        Object h = ((JavascriptExecutor) driver).executeScript("return document.documentElement.scrollHeight");
        int height = Math.min(4000, Math.max(700, ((Number) h).intValue()));
        driver.manage().window().setSize(new Dimension(WIDTH, height));
        Files.createDirectories(SCREENSHOTS);
        File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        driver.manage().window().setSize(new Dimension(WIDTH, 900));
    }

    /** Browser console messages at level SEVERE (script errors, CSP violations). */
    public java.util.List<String> severeLogs() {
        return driver.manage().logs().get("browser").getAll().stream()
                .filter(e -> e.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue())
                .map(e -> e.getMessage()).toList();
    }

    @Override
    public void close() throws IOException {
        try {
            driver.quit();
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
