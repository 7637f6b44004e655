import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measures the paths that read and change jobs through the Panache entity (README "Architecture"): job INFO,
 * the dead-letter list and a bulk dead-letter retry. Run it against two servers in turn (for example this commit's
 * jar and an older one) to compare; it prints one line per path.
 *
 * <pre>
 *   java scripts/EntityPaths.java --url http://127.0.0.1:8080 [--token T] [--jobs 5000] [--seconds 10] [--loops 8]
 * </pre>
 *
 * It pushes {@code --jobs} jobs into a fresh queue with one attempt each, fetches and fails them (batch ACK with
 * errors) so they become dead letters, then for {@code --seconds} each runs {@code --loops} concurrent request loops
 * of INFO on random ones and of the dead-letter list (50 per page, newest first), then retries them all in bulk.
 */
public class EntityPaths {

    static String url = "http://127.0.0.1:8080";
    static String token;
    static int jobs = 5000;
    static int seconds = 10;
    static int loops = 8;
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public static void main(String[] a) throws Exception {
        for (int i = 0; i + 1 < a.length; i += 2) {
            switch (a[i]) {
                case "--url" -> url = a[i + 1].replaceAll("/+$", "");
                case "--token" -> token = a[i + 1];
                case "--jobs" -> jobs = Integer.parseInt(a[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(a[i + 1]);
                case "--loops" -> loops = Integer.parseInt(a[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + a[i]);
            }
        }
        String queue = "entity-paths-" + System.currentTimeMillis() % 1_000_000;
        List<String> ids = deadLetters(queue);
        System.out.printf(Locale.ROOT, "entity-paths: url=%s queue=%s dead letters=%d loops=%d seconds=%d%n",
                url, queue, ids.size(), loops, seconds);
        measure("info (GET /ojs/v1/jobs/{id})", () -> {
            String id = ids.get(ThreadLocalRandom.current().nextInt(ids.size()));
            return send("GET", "/ojs/v1/jobs/" + id, null);
        });
        measure("dead-letter list (50)", () -> send("GET", "/ojs/v1/dead-letter?queue=" + queue + "&limit=50", null));
        long t0 = System.nanoTime();
        HttpResponse<String> r = send("POST", "/ojs/v1/dead-letter/retry",
                "{\"filter\":{\"queue\":\"" + queue + "\"},\"confirm\":true}");
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "%-32s %d jobs in %.2f s = %.0f jobs/s (HTTP %d %s)%n", "bulk dead-letter retry",
                ids.size(), s, ids.size() / s, r.statusCode(), r.body().length() > 120 ? r.body().substring(0, 120) : r.body());
    }

    interface Call {
        HttpResponse<String> run() throws Exception;
    }

    static void measure(String name, Call call) throws Exception {
        AtomicLong ok = new AtomicLong();
        AtomicLong bad = new AtomicLong();
        List<long[]> lat = new ArrayList<>();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < loops; i++) {
            long[] mine = new long[2_000_000];
            lat.add(mine);
            Thread th = new Thread(() -> {
                int n = 0;
                while (System.nanoTime() < end) {
                    long t = System.nanoTime();
                    try {
                        int status = call.run().statusCode();
                        (status == 200 ? ok : bad).incrementAndGet();
                    } catch (Exception e) {
                        bad.incrementAndGet();
                    }
                    if (n < mine.length - 1) {
                        mine[++n] = System.nanoTime() - t;
                    }
                    mine[0] = n;
                }
            });
            th.start();
            threads.add(th);
        }
        for (Thread t : threads) {
            t.join();
        }
        long[] all = lat.stream().flatMapToLong(m -> Arrays.stream(m, 1, (int) m[0] + 1)).sorted().toArray();
        System.out.printf(Locale.ROOT, "%-32s %.0f req/s  p50 %.2f ms  p99 %.2f ms  (%d ok, %d not 200)%n", name,
                ok.get() / (double) seconds, pct(all, 0.50), pct(all, 0.99), ok.get(), bad.get());
    }

    static double pct(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, p * sorted.length)] / 1e6;
    }

    static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f-]{36})\"");

    /** Pushes the jobs in batches of 500, then fetches and fails them all: one attempt each, so dead letters. */
    static List<String> deadLetters(String queue) throws Exception {
        for (int done = 0; done < jobs; done += 500) {
            StringBuilder b = new StringBuilder("{\"jobs\":[");
            for (int i = 0; i < Math.min(500, jobs - done); i++) {
                b.append(i == 0 ? "" : ",").append("{\"type\":\"bench.entity\",\"queue\":\"").append(queue)
                        .append("\",\"args\":[").append(done + i).append(",\"payload\"],\"meta\":{\"k\":\"v\"},")
                        .append("\"options\":{\"retry\":{\"max_attempts\":1,\"on_exhaustion\":\"dead_letter\"}}}");
            }
            check(send("POST", "/ojs/v1/jobs/batch", b.append("]}").toString()), 201, 200);
        }
        java.util.Set<String> ids = new java.util.LinkedHashSet<>();
        while (ids.size() < jobs) {
            HttpResponse<String> f = send("POST", "/ojs/v1/workers/fetch",
                    "{\"queues\":[\"" + queue + "\"],\"count\":100,\"worker_id\":\"entity-paths\"}");
            check(f, 200);
            Matcher m = ID.matcher(f.body());
            StringBuilder acks = new StringBuilder("{\"worker_id\":\"entity-paths\",\"acks\":[");
            int n = 0;
            while (m.find()) {
                if (!ids.add(m.group(1))) {
                    continue; // the answer's "job" repeats the first of "jobs"
                }
                acks.append(n++ == 0 ? "" : ",").append("{\"job_id\":\"").append(m.group(1)).append("\",\"error\":")
                        .append("{\"type\":\"BenchError\",\"message\":\"failed on purpose\",\"retryable\":false}}");
            }
            if (n == 0) {
                throw new IllegalStateException("fetch returned no job with " + ids.size() + " of " + jobs);
            }
            check(send("POST", "/ojs/v1/workers/ack/batch", acks.append("]}").toString()), 200);
        }
        return new ArrayList<>(ids);
    }

    static void check(HttpResponse<String> r, int... ok) {
        for (int s : ok) {
            if (r.statusCode() == s) {
                return;
            }
        }
        throw new IllegalStateException("HTTP " + r.statusCode() + ": " + r.body());
    }

    static HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/openjobspec+json");
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
