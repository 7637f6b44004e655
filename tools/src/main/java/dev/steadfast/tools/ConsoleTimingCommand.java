package dev.steadfast.tools;

import dev.steadfast.tools.measure.Latencies;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code console-timing}: logs in to the console, requests each page N times over keep-alive connections and
 * prints p50 / p95 / max in whole milliseconds (server time plus loopback, as a browser on the same host would see
 * it). The pages: overview (and its live fragment), queues, jobs (unfiltered, by state, queue+type, tag, time
 * range, text searches rare and common, oldest first, a deep keyset page), one job, dead letter (plain, filtered,
 * next page), workers, the jobs list's state tabs, args conditions and the confirmations of its bulk actions on
 * everything matching (POSTs without confirm=yes: they count and change nothing), error groups and the audit log (its
 * filters: actor, action, a time range; seed entries to time it). Ids and cursors are taken from the pages
 * themselves. Works with login off too; the
 * password comes from STEADFAST_CONSOLE_PASSWORD. HTML pages, not OJS: the JDK HttpClient with a cookie store.
 */
public final class ConsoleTimingCommand {

    static final String USAGE = "usage: STEADFAST_CONSOLE_PASSWORD=... java -jar tools/target/steadfast-tools.jar"
            + " console-timing --url http://127.0.0.1:8080 [--user admin] [--n 30] [--only TEXT]"
            + "\n  --only TEXT  time only the pages whose name contains TEXT (e.g. error)";

    private final String base;
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).cookieHandler(new CookieManager()).build();

    private ConsoleTimingCommand(String base) {
        this.base = base;
    }

    public static int run(String[] args) throws IOException, InterruptedException {
        String base = "http://127.0.0.1:8080";
        String user = "admin";
        int n = 30;
        String only = null;
        for (int i = 0; i < args.length; i += 2) {
            if (args[i].equals("--help")) {
                throw Exit.usage(USAGE, true);
            }
            if (i + 1 >= args.length) {
                throw new Exit(2, "missing value for " + args[i]);
            }
            switch (args[i]) {
                case "--url" -> base = args[i + 1].replaceAll("/$", "");
                case "--user" -> user = args[i + 1];
                case "--n" -> n = Integer.parseInt(args[i + 1]);
                case "--only" -> only = args[i + 1];
                default -> throw new Exit(2, "unknown option " + args[i] + "\n" + USAGE);
            }
        }
        ConsoleTimingCommand c = new ConsoleTimingCommand(base);
        c.login(user, System.getenv().getOrDefault("STEADFAST_CONSOLE_PASSWORD", ""));
        Map<String, String> pages = c.pages();
        if (only != null) {
            String text = only;
            pages.keySet().removeIf(name -> !name.contains(text));
        }
        c.time(pages, Math.max(1, n));
        return 0;
    }

    private Map<String, String> pages() throws IOException, InterruptedException {
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("overview", "/admin");
        pages.put("overview (live part)", "/admin/overview/live");
        pages.put("queues", "/admin/queues");
        pages.put("jobs", "/admin/jobs");
        pages.put("jobs, next page", next("/admin/jobs"));
        String deep = "/admin/jobs";
        for (int i = 1; i < 100; i++) {
            deep = next(deep);
        }
        pages.put("jobs, page 100 (keyset)", deep);
        pages.put("jobs ?state=retryable", "/admin/jobs?state=retryable");
        pages.put("jobs ?state=pending (rare)", "/admin/jobs?state=pending");
        pages.put("jobs ?queue=billing&type=invoice.refund", "/admin/jobs?queue=billing&type=invoice.refund");
        pages.put("jobs ?type=email.* (prefix)", "/admin/jobs?type=email.*");
        pages.put("jobs ?tag=vip", "/admin/jobs?tag=vip");
        String from = Instant.now().minus(3, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MINUTES).toString();
        pages.put("jobs ?from=3 days ago&to=+1h", "/admin/jobs?from=" + enc(from.substring(0, 16)) + "&to="
                + enc(Instant.parse(from).plus(1, ChronoUnit.HOURS).toString().substring(0, 16)));
        pages.put("jobs ?sort=oldest", "/admin/jobs?sort=oldest");
        pages.put("jobs ?q=<rare text>", "/admin/jobs?q=inv_424241");
        pages.put("jobs ?q=<common text>", "/admin/jobs?q=example.com");
        pages.put("jobs ?q=<error text>&state=discarded", "/admin/jobs?q=upstream+said+503&state=discarded");
        pages.put("jobs ?q=<job id>", "/admin/jobs?q=" + firstJob("/admin/jobs"));
        pages.put("job (dead letter)", "/admin/jobs/" + firstJob("/admin/dead-letter"));
        pages.put("job (completed)", "/admin/jobs/" + firstJob("/admin/jobs?state=completed"));
        pages.put("dead letter", "/admin/dead-letter");
        pages.put("dead letter, next page", next("/admin/dead-letter"));
        pages.put("dead letter ?error_type=SmtpError", "/admin/dead-letter?error_type=SmtpError");
        for (String state : List.of("available", "scheduled", "pending", "active", "retryable", "completed",
                "cancelled", "discarded")) {
            pages.put("jobs tab " + state, "/admin/jobs?state=" + state);
        }
        pages.put("jobs ?q=args.<key>:<rare value>", "/admin/jobs?q=" + enc("args.invoice_id:inv_424241"));
        pages.put("jobs ?q=args.<key>:<common number>", "/admin/jobs?q=" + enc("args.width:640"));
        pages.put("jobs ?q=args.<a>:<v> args.<b>:<n>", "/admin/jobs?q="
                + enc("args.currency:EUR args.amount_cents:126"));
        pages.put("jobs ?q=args.<key>:<no match>", "/admin/jobs?q=" + enc("args.invoice_id:inv_nothing"));
        pages.put("jobs ?state=retryable&q=args.<k>:<v>", "/admin/jobs?state=retryable&q=" + enc("args.width:640"));
        // the confirmations of "everything matching": POSTs without confirm=yes, which only count
        pages.put("confirm retry all (no filter)", "POST /admin/jobs/bulk op=retry-matching");
        pages.put("confirm delete all (no filter)", "POST /admin/jobs/bulk op=delete-matching");
        pages.put("confirm delete all completed", "POST /admin/jobs/bulk op=delete-matching&state=completed");
        pages.put("confirm cancel all in queue billing", "POST /admin/jobs/bulk op=cancel-matching&queue=billing");
        pages.put("confirm retry all retryable", "POST /admin/jobs/bulk op=retry-matching&state=retryable");
        pages.put("confirm delete all args.<key>:<rare>", "POST /admin/jobs/bulk op=delete-matching&q="
                + enc("args.invoice_id:inv_424241"));
        pages.put("confirm delete all args.<key>:<common>", "POST /admin/jobs/bulk op=delete-matching&q="
                + enc("args.width:640"));
        pages.put("workers", "/admin/workers");
        pages.put("errors (error groups)", "/admin/errors");
        Matcher group = Pattern.compile("href=\"(/admin/errors/[0-9a-f]{16})\"").matcher(get("/admin/errors").body());
        if (group.find()) { // the most recently failing group
            pages.put("error group", group.group(1));
            pages.put("error group, next page", next(group.group(1)));
        }
        Matcher queue = Pattern.compile("href=\"(/admin/queues/[a-z0-9.-]+)\"").matcher(get("/admin/queues").body());
        if (queue.find()) {
            pages.put("queue (one, with limits)", queue.group(1));
        }
        pages.put("cron", "/admin/cron");
        Matcher cron = Pattern.compile("href=\"(/admin/cron/[a-z0-9.-]+)\"").matcher(get("/admin/cron").body());
        if (cron.find()) {
            pages.put("cron schedule", cron.group(1));
        }
        pages.put("retry simulator", "/admin/tools/retry?policy=" + enc("{\"max_attempts\": 10, \"jitter\": true}"));
        pages.put("audit", "/admin/audit");
        pages.put("audit, next page", next("/admin/audit"));
        pages.put("audit, page 20 (keyset)", nth("/admin/audit", 20));
        pages.put("audit ?actor=<common>", "/admin/audit?actor=alice");
        pages.put("audit ?actor=<rare>", "/admin/audit?actor=rare-bot");
        pages.put("audit ?action=<rare>", "/admin/audit?action=reset");
        String day = Instant.now().minus(30, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MINUTES).toString();
        pages.put("audit ?since=30 days ago&until=+1d", "/admin/audit?since=" + enc(day.substring(0, 16)) + "&until="
                + enc(Instant.parse(day).plus(1, ChronoUnit.DAYS).toString().substring(0, 16)));
        return pages;
    }

    /** Three untimed requests per page, then {@code n} timed ones. */
    private void time(Map<String, String> pages, int n) throws IOException, InterruptedException {
        System.out.printf("%-42s %6s %6s %6s %7s  %s%n", "page", "p50", "p95", "max", "KiB", "status");
        for (Map.Entry<String, String> p : pages.entrySet()) {
            for (int i = 0; i < 3; i++) {
                get(p.getValue());
            }
            Latencies latency = new Latencies();
            int status = 0, chars = 0;
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                HttpResponse<String> r = get(p.getValue());
                latency.record(System.nanoTime() - t0);
                status = r.statusCode();
                chars = r.body().length();
            }
            System.out.printf("%-42s %6d %6d %6d %7.1f  %d%n", p.getKey(), (long) latency.percentileMs(0.50),
                    (long) latency.percentileMs(0.95), (long) latency.percentileMs(1.0), chars / 1024.0, status);
        }
    }

    private String csrf;

    /** GETs {@code path}, or POSTs the form of a "POST /path body" entry with the session's CSRF token. */
    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        if (path.startsWith("POST ")) {
            String[] p = path.substring(5).split(" ", 2);
            if (csrf == null) {
                Matcher m = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(get("/admin/jobs").body());
                csrf = m.find() ? m.group(1) : "";
            }
            return http.send(HttpRequest.newBuilder(URI.create(base + p[0])).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("_csrf=" + enc(csrf) + "&" + p[1])).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private void login(String user, String password) throws IOException, InterruptedException {
        HttpResponse<String> form = get("/admin/login");
        if (form.statusCode() != 200) {
            return; // login is switched off
        }
        Matcher m = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(form.body());
        if (!m.find()) {
            throw new Exit(2, "console-timing: no login form at " + base + "/admin/login");
        }
        String body = "_csrf=" + enc(m.group(1)) + "&username=" + enc(user) + "&password=" + enc(password)
                + "&next=%2Fadmin";
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/admin/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 303) {
            throw new Exit(2, "console-timing: login failed (" + r.statusCode() + "); set STEADFAST_CONSOLE_PASSWORD");
        }
    }

    private String nth(String path, int page) throws IOException, InterruptedException {
        for (int i = 1; i < page; i++) {
            path = next(path);
        }
        return path;
    }

    private String next(String path) throws IOException, InterruptedException {
        Matcher m = Pattern.compile("rel=\"next\" href=\"([^\"]+)\"").matcher(get(path).body());
        return m.find() ? m.group(1).replace("&amp;", "&") : path;
    }

    private String firstJob(String path) throws IOException, InterruptedException {
        Matcher m = Pattern.compile("href=\"/admin/jobs/([0-9a-f-]{36})\"").matcher(get(path).body());
        if (!m.find()) {
            throw new Exit(2, "console-timing: no job on " + path);
        }
        return m.group(1);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
