// Times the console's pages: logs in, requests each page N times over one keep-alive connection and prints
// p50 / p95 / max in milliseconds (server time plus loopback, as a browser on the same host would see).
//
//   STEADFAST_CONSOLE_PASSWORD=... java scripts/ConsoleTiming.java --url http://127.0.0.1:8080 [--user admin] [--n 30]
//
// The pages: overview (and its live fragment), queues, jobs (unfiltered, by state, queue+type, tag, time range,
// text searches rare and common, oldest first, a deep keyset page), one job, dead letter (plain, filtered, next
// page) and workers. Ids and cursors are taken from the pages themselves. Works with login off too.
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class ConsoleTiming {

    static String base = "http://127.0.0.1:8080";
    static String cookie = "";
    static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).build();

    public static void main(String[] args) throws Exception {
        String user = "admin";
        int n = 30;
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--url" -> base = args[i + 1].replaceAll("/$", "");
                case "--user" -> user = args[i + 1];
                case "--n" -> n = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        login(user, System.getenv().getOrDefault("STEADFAST_CONSOLE_PASSWORD", ""));
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
        pages.put("workers", "/admin/workers");
        System.out.printf("%-42s %6s %6s %6s %7s  %s%n", "page", "p50", "p95", "max", "KiB", "status");
        for (Map.Entry<String, String> p : pages.entrySet()) {
            long[] ms = new long[n];
            int status = 0, bytes = 0;
            for (int i = 0; i < 3; i++) {
                get(p.getValue());
            }
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                HttpResponse<String> r = get(p.getValue());
                ms[i] = (System.nanoTime() - t0) / 1_000_000;
                status = r.statusCode();
                bytes = r.body().length();
            }
            Arrays.sort(ms);
            System.out.printf("%-42s %6d %6d %6d %7.1f  %d%n", p.getKey(), ms[n / 2], ms[(int) Math.ceil(n * 0.95) - 1],
                    ms[n - 1], bytes / 1024.0, status);
        }
    }

    static HttpResponse<String> get(String path) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        if (!cookie.isEmpty()) {
            b.header("Cookie", cookie);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static void login(String user, String password) throws Exception {
        HttpResponse<String> form = get("/admin/login");
        cookie = sessionCookie(form, cookie);
        if (form.statusCode() != 200) {
            return; // login is switched off
        }
        Matcher m = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(form.body());
        if (!m.find()) {
            throw new IllegalStateException("no login form");
        }
        String body = "_csrf=" + enc(m.group(1)) + "&username=" + enc(user) + "&password=" + enc(password) + "&next=%2Fadmin";
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/admin/login"))
                .header("Cookie", cookie).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 303) {
            throw new IllegalStateException("login failed (" + r.statusCode() + "); set STEADFAST_CONSOLE_PASSWORD");
        }
        cookie = sessionCookie(r, cookie);
    }

    static String sessionCookie(HttpResponse<?> r, String old) {
        for (String c : r.headers().allValues("Set-Cookie")) {
            if (c.startsWith("steadfast_session=")) {
                return c.substring(0, c.indexOf(';'));
            }
        }
        return old;
    }

    static String next(String path) throws Exception {
        Matcher m = Pattern.compile("rel=\"next\" href=\"([^\"]+)\"").matcher(get(path).body());
        return m.find() ? m.group(1).replace("&amp;", "&") : path;
    }

    static String firstJob(String path) throws Exception {
        Matcher m = Pattern.compile("href=\"/admin/jobs/([0-9a-f-]{36})\"").matcher(get(path).body());
        if (!m.find()) {
            throw new IllegalStateException("no job on " + path);
        }
        return m.group(1);
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
