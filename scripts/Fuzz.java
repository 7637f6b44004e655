import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fuzz: sends malformed requests to every endpoint of an OJS server on 127.0.0.1 and checks that each one is
 * answered with a 4xx OJS error envelope (never a 5xx, never a bare answer), while well-formed pushes, fetches and
 * acks run concurrently and must all succeed. Single file, JDK only: {@code java scripts/Fuzz.java --help}.
 *
 * <p>Each malformed request takes one endpoint's well-formed body and breaks it one way: bad JSON, a wrong type
 * or a huge number at one field, a NUL character in one string or key, a bad percent-escape, raw braces or a NUL
 * in the path, a long request line, many query parameters or headers, a wrong or multipart content type, a GET
 * with a body. Requests are written on raw sockets (one connection each), so nothing is cleaned up on the way.
 *
 * <p>Output: counts of requests, 5xx answers, answers without the envelope (a 4xx without
 * {@code {"error": {"code", "message", "request_id"}}}, {@code X-Request-Id} and {@code OJS-Version}), good requests
 * that failed, and the first examples of each. Exit status 1 when any of them is not zero.
 */
public class Fuzz {

    static String host = "127.0.0.1";
    static int port = 8080;
    static String token;
    static int total = 2000;
    static int concurrency = 8;
    static long seed = 1;
    static long maxSeconds = 300;

    static final AtomicInteger sent = new AtomicInteger();
    static final AtomicInteger fiveXx = new AtomicInteger();
    static final AtomicInteger noEnvelope = new AtomicInteger();
    static final AtomicInteger goodSent = new AtomicInteger();
    static final AtomicInteger goodFailed = new AtomicInteger();
    static final AtomicInteger ioErrors = new AtomicInteger();
    static final Map<String, AtomicInteger> byStatus = new ConcurrentHashMap<>();
    static final List<String> examples = java.util.Collections.synchronizedList(new ArrayList<>());
    static final AtomicLong deadline = new AtomicLong();

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--url" -> {
                    Matcher m = Pattern.compile("^http://(127\\.0\\.0\\.1|localhost):(\\d+)/?$").matcher(args[++i]);
                    if (!m.matches()) {
                        die("--url must be http://127.0.0.1:PORT (this tool only talks to the local machine)");
                    }
                    port = Integer.parseInt(m.group(2));
                }
                case "--requests" -> total = Integer.parseInt(args[++i]);
                case "--concurrency" -> concurrency = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--token" -> token = args[++i];
                case "--max-seconds" -> maxSeconds = Long.parseLong(args[++i]);
                default -> {
                    System.out.println("usage: java scripts/Fuzz.java [--url http://127.0.0.1:8080] [--requests 2000]"
                            + " [--concurrency 8] [--seed 1] [--token T] [--max-seconds 300]");
                    System.exit(args[i].equals("--help") ? 0 : 2);
                }
            }
        }
        total = Math.max(1, Math.min(total, 1_000_000));
        deadline.set(System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds));
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency + 2);
        // a third of the threads (at least one) push, fetch and ack well-formed jobs at the same time
        int good = Math.max(1, concurrency / 3);
        AtomicInteger goodLoops = new AtomicInteger();
        for (int t = 0; t < concurrency; t++) {
            final int thread = t;
            pool.submit(() -> {
                Random r = new Random(seed * 1000 + thread);
                while (sent.get() < total && System.nanoTime() < deadline.get()) {
                    try {
                        if (thread < good && goodLoops.incrementAndGet() % 2 == 0) {
                            goodRound(r, thread);
                        } else {
                            badRequest(r, thread);
                        }
                    } catch (Exception e) {
                        ioErrors.incrementAndGet();
                        example("io error: " + e);
                    }
                }
                return null;
            });
        }
        pool.shutdown();
        pool.awaitTermination(maxSeconds + 60, TimeUnit.SECONDS);
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "fuzz: %d requests in %.1f s (seed %d): %d malformed, %d well-formed%n",
                sent.get(), secs, seed, sent.get() - goodSent.get(), goodSent.get());
        System.out.println("statuses: " + new java.util.TreeMap<>(byStatus));
        System.out.printf("RESULT total=%d 5xx=%d without_envelope=%d good_failed=%d io_errors=%d%n", sent.get(),
                fiveXx.get(), noEnvelope.get(), goodFailed.get(), ioErrors.get());
        synchronized (examples) {
            examples.stream().limit(30).forEach(e -> System.out.println("  " + e));
        }
        System.exit(fiveXx.get() + noEnvelope.get() + goodFailed.get() + ioErrors.get() == 0 ? 0 : 1);
    }

    static void die(String m) {
        System.err.println(m);
        System.exit(2);
    }

    static void example(String s) {
        if (examples.size() < 200) {
            examples.add(s.length() > 400 ? s.substring(0, 400) + "..." : s);
        }
    }

    // ---- well-formed traffic: push a job, fetch it, ack it; each step must succeed

    static void goodRound(Random r, int thread) throws IOException {
        String queue = "fuzz-good-" + thread;
        String worker = "fuzz-good-worker-" + thread;
        Answer push = good("POST", "/ojs/v1/jobs", json(map("type", "fuzz.good", "args", List.of("ok", r.nextInt()),
                "meta", map("k", "v"), "options", map("queue", queue))), 201);
        if (push == null) {
            return;
        }
        Answer fetch = good("POST", "/ojs/v1/workers/fetch", json(map("queues", List.of(queue), "count", 1,
                "worker_id", worker)), 200);
        if (fetch == null) {
            return;
        }
        Matcher m = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"").matcher(fetch.body);
        if (!m.find()) {
            goodFailed.incrementAndGet();
            example("good fetch returned no job: " + fetch.body);
            return;
        }
        good("POST", "/ojs/v1/workers/ack", json(map("job_id", m.group(1), "worker_id", worker,
                "result", map("ok", true))), 200);
    }

    static Answer good(String method, String path, String body, int expected) throws IOException {
        goodSent.incrementAndGet();
        Answer a = send(method, path, List.of("Content-Type: application/json"), body.getBytes(StandardCharsets.UTF_8));
        if (a.status != expected) {
            goodFailed.incrementAndGet();
            example("good " + method + " " + path + " -> " + a.status + " " + a.body);
            return null;
        }
        return a;
    }

    // ---- malformed traffic

    record Endpoint(String method, String path, Object body) {
    }

    static final String ID = "019a0000-0000-7000-8000-000000000001";

    static List<Endpoint> endpoints() {
        Map<String, Object> job = map("type", "fuzz.bad", "args", List.of("a", map("k", "v"), 1),
                "meta", map("m", "v"), "options", map("queue", "fuzz-bad", "tags", List.of("t"), "timeout_ms", 1000,
                        "priority", 1, "visibility_timeout_ms", 1000, "scheduled_at", "2026-01-01T00:00:00Z",
                        "retry", map("max_attempts", 2, "initial_interval", "PT1S", "backoff_coefficient", 2.0,
                                "non_retryable_errors", List.of("X"))), "timeout", 5);
        Map<String, Object> filter = map("filter", map("queue", "fuzz-dl", "type", "t", "error_type", "e",
                "since", "2026-01-01T00:00:00Z", "until", "2027-01-01T00:00:00Z"), "confirm", true);
        List<Endpoint> e = new ArrayList<>();
        e.add(new Endpoint("POST", "/ojs/v1/jobs", job));
        e.add(new Endpoint("POST", "/ojs/v1/jobs/batch", map("jobs", List.of(job, job))));
        Map<String, Object> unique = map("type", "fuzz.bad", "args", List.of(map("id", 1)), "options",
                map("queue", "fuzz-bad", "unique", map("keys", List.of("type", "args", "meta"), "args_keys",
                        List.of("id"), "meta_keys", List.of("m"), "period", "PT1H", "states", List.of("available"),
                        "on_conflict", "replace"), "rate_limit", map("max_per_second", 100)));
        e.add(new Endpoint("POST", "/ojs/v1/jobs", unique));
        e.add(new Endpoint("POST", "/ojs/v1/jobs/bulk", map("atomicity", "partial", "jobs", List.of(job, unique))));
        e.add(new Endpoint("GET", "/ojs/v1/queues/fuzz-bad/stats", null));
        e.add(new Endpoint("PUT", "/ojs/v1/admin/queues/fuzz-rl/rate-limit", map("concurrency", 5,
                "rate", map("limit", 100, "period", "PT1M"))));
        e.add(new Endpoint("POST", "/ojs/v1/schemas", map("uri", "urn:fuzz:v1", "type", "fuzz.bad", "version", 1,
                "schema", map("type", "array"))));
        e.add(new Endpoint("GET", "/ojs/v1/schemas/urn%3Afuzz%3Av1", null));
        e.add(new Endpoint("GET", "/ojs/v1/jobs/{id}", null));
        e.add(new Endpoint("DELETE", "/ojs/v1/jobs/{id}", null));
        e.add(new Endpoint("POST", "/ojs/v1/jobs/{id}/activate", null));
        e.add(new Endpoint("POST", "/ojs/v1/workers/fetch", map("queues", List.of("fuzz-bad", "q2"), "count", 2,
                "worker_id", "w", "visibility_timeout_ms", 1000)));
        e.add(new Endpoint("POST", "/ojs/v1/workers/ack", map("job_id", ID, "worker_id", "w",
                "result", map("r", "x", "n", List.of(1, "y")))));
        e.add(new Endpoint("POST", "/ojs/v1/workers/ack/batch", map("worker_id", "w", "acks", List.of(
                map("job_id", ID, "result", map("r", "x")),
                map("job_id", "019a0000-0000-7000-8000-000000000002", "error", map("message", "m", "type", "T"))))));
        e.add(new Endpoint("POST", "/ojs/v1/workers/nack", map("job_id", ID, "worker_id", "w", "error",
                map("code", "c", "type", "T", "message", "m", "retryable", true, "details", map("d", "x"),
                        "backtrace", List.of("at a", "at b")), "requeue", false)));
        e.add(new Endpoint("POST", "/ojs/v1/workers/heartbeat", map("worker_id", "w", "active_jobs", List.of(ID),
                "visibility_timeout_ms", 1000, "hostname", "h", "queues", List.of("fuzz-bad"))));
        e.add(new Endpoint("POST", "/ojs/v1/workers/snooze", map("job_id", ID, "worker_id", "w", "delay_ms", 10,
                "delay", "PT1S", "until", "2026-01-01T00:00:00Z")));
        e.add(new Endpoint("GET", "/ojs/v1/queues", null));
        e.add(new Endpoint("POST", "/ojs/v1/queues/fuzz-pause/pause", null));
        e.add(new Endpoint("POST", "/ojs/v1/queues/fuzz-pause/resume", null));
        e.add(new Endpoint("GET", "/ojs/v1/admin/queues", null));
        e.add(new Endpoint("GET", "/ojs/v1/admin/queues/fuzz-bad", null));
        e.add(new Endpoint("POST", "/ojs/v1/admin/queues/fuzz-pause/pause", null));
        e.add(new Endpoint("POST", "/ojs/v1/admin/queues/fuzz-pause/resume", null));
        e.add(new Endpoint("POST", "/ojs/v1/admin/jobs/{id}/retry", null));
        e.add(new Endpoint("POST", "/ojs/v1/admin/jobs/{id}/cancel", null));
        e.add(new Endpoint("DELETE", "/ojs/v1/admin/jobs/{id}", null));
        e.add(new Endpoint("GET", "/ojs/v1/admin/jobs/count?queue=fuzz-bad", null));
        e.add(new Endpoint("DELETE", "/ojs/v1/admin/jobs/completed?before=2000-01-01T00:00:00Z", null));
        e.add(new Endpoint("GET", "/ojs/v1/admin/metrics/summary", null));
        e.add(new Endpoint("GET", "/ojs/v1/retry-policies", null));
        e.add(new Endpoint("GET", "/ojs/v1/events?types=job.completed&queues=q&job_types=x&limit=10", null));
        e.add(new Endpoint("GET", "/ojs/v1/dead-letter?queue=fuzz-dl&type=t&error_type=e&since=2026-01-01T00:00:00Z"
                + "&limit=10&offset=0", null));
        e.add(new Endpoint("GET", "/ojs/v1/dead-letter/stats", null));
        e.add(new Endpoint("GET", "/ojs/v1/dead-letter/{id}", null));
        e.add(new Endpoint("POST", "/ojs/v1/dead-letter/{id}/retry", null));
        e.add(new Endpoint("DELETE", "/ojs/v1/dead-letter/{id}", null));
        e.add(new Endpoint("POST", "/ojs/v1/dead-letter/retry", filter));
        e.add(new Endpoint("POST", "/ojs/v1/dead-letter/delete", filter));
        e.add(new Endpoint("DELETE", "/ojs/v1/dead-letter?queue=fuzz-dl&confirm=true", null));
        e.add(new Endpoint("GET", "/ojs/v1/admin/dead-letter?queue=fuzz-dl&page=1&per_page=5", null));
        e.add(new Endpoint("GET", "/ojs/v1/admin/dead-letter/stats", null));
        e.add(new Endpoint("POST", "/ojs/v1/admin/dead-letter/{id}/retry", null));
        e.add(new Endpoint("DELETE", "/ojs/v1/admin/dead-letter/{id}", null));
        e.add(new Endpoint("POST", "/ojs/v1/admin/dead-letter/retry", filter));
        e.add(new Endpoint("GET", "/ojs/v1/admin/workers", null));
        e.add(new Endpoint("POST", "/ojs/v1/admin/workers/fuzz-w/quiet", null));
        e.add(new Endpoint("POST", "/ojs/v1/admin/workers/fuzz-w/resume", null));
        e.add(new Endpoint("GET", "/ojs/manifest", null));
        e.add(new Endpoint("GET", "/ojs/v1/health", null));
        return e;
    }

    static final List<Endpoint> ENDPOINTS = endpoints();
    static final Object[] ODD_VALUES = {9223372036854775807L, -9223372036854775808L, "99999999999999999999999",
            "1e308", "-1", "0", "1.5", "true", "null", "[]", "{}", "\"\"", "\"x\"", "\"\\u0000\"", "\"\\ud800\"",
            "123456789012345678901234567890", "-0.0", "1e-400", "9223372036854775808"};

    static void badRequest(Random r, int thread) throws IOException {
        Endpoint ep = ENDPOINTS.get(r.nextInt(ENDPOINTS.size()));
        String path = ep.path.replace("{id}", ID);
        String method = ep.method;
        List<String> headers = new ArrayList<>();
        byte[] body = null;
        String bodyText = ep.body == null ? null : json(ep.body);
        int kind = r.nextInt(14);
        switch (kind) {
            case 0 -> { // malformed JSON
                String[] bad = {"{", "}", "[]", "\"x\"", "{\"a\":}", bodyText + "x", "{\"type\":\"a\",}", "nul",
                        "[".repeat(3000), "{\"args\":" + "[".repeat(1200) + "]".repeat(1200) + "}", "1e999999",
                        "{\"a\":\"\\u00\"}", "{\"a\":\"\\x\"}", "\u0000", ""};
                bodyText = bad[r.nextInt(bad.length)];
                method = "POST";
            }
            case 1, 2 -> { // a wrong type or an odd number at one field
                if (ep.body == null) {
                    path = path + "?limit=" + ODD_VALUES[r.nextInt(ODD_VALUES.length)].toString().replace("\"", "");
                } else {
                    Object o = ODD_VALUES[r.nextInt(ODD_VALUES.length)];
                    bodyText = json(replaceOne(ep.body, r, v -> new Raw(o instanceof String s ? s : o.toString())));
                }
            }
            case 3, 4 -> { // a NUL in one string or key
                if (ep.body == null) {
                    path = nulInPath(path, r);
                } else {
                    bodyText = json(replaceOne(ep.body, r, v -> v instanceof String s ? s.substring(0, s.length() / 2)
                            + "\u0000" + s.substring(s.length() / 2) : v));
                    if (r.nextInt(4) == 0) {
                        bodyText = bodyText.replaceFirst("\"([a-z_]+)\":", "\"$1\\\\u0000\":");
                    }
                }
            }
            case 5 -> { // bad percent escapes and raw braces or brackets
                String[] bad = {"%", "%zz", "%E0%A4", "%C0%AF", "%00", "{x}", "[x]", "%7B%7D", "a%2Fb", "..%2F..",
                        "%FF%FE", "\\", "|", "^", "`", "\"", "<>"};
                String b = bad[r.nextInt(bad.length)];
                path = r.nextBoolean() ? path + (path.contains("?") ? "&" : "?") + "queue=" + b + "&" + b + "=1"
                        : path.replaceFirst("/([^/?]+)$", "/$1" + Matcher.quoteReplacement(b));
            }
            case 6 -> { // a long request line
                int n = 3000 + r.nextInt(20_000);
                path = path + (path.contains("?") ? "&" : "?") + "x=" + "a".repeat(n);
            }
            case 7 -> { // many query parameters
                StringBuilder q = new StringBuilder(path).append(path.contains("?") ? "&" : "?");
                int n = 100 + r.nextInt(3000);
                for (int i = 0; i < n; i++) {
                    q.append(i == 0 ? "" : "&").append("p").append(i).append("=").append(i);
                }
                path = q.toString();
            }
            case 8 -> { // many or huge headers
                if (r.nextBoolean()) {
                    for (int i = 0; i < 100 + r.nextInt(400); i++) {
                        headers.add("X-Fuzz-" + i + ": " + "v".repeat(20));
                    }
                } else {
                    headers.add("X-Fuzz: " + "v".repeat(9000 + r.nextInt(20_000)));
                }
            }
            case 9 -> { // a wrong content type, on any method
                String[] types = {"text/plain", "multipart/form-data; boundary=xyz", "application/x-www-form-urlencoded",
                        "application/xml", "application/json; charset=latin1", "", "application/openjobspec+json; x"};
                headers.add("Content-Type: " + types[r.nextInt(types.length)]);
                bodyText = bodyText == null ? "a=b" : bodyText;
                String[] methods = {method, "GET", "DELETE", "PUT", "PATCH", "POST"};
                method = methods[r.nextInt(methods.length)];
            }
            case 10 -> { // a GET (or DELETE) with a multipart body
                method = r.nextBoolean() ? "GET" : "DELETE";
                headers.add("Content-Type: multipart/form-data; boundary=xyz");
                bodyText = "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--xyz--\r\n";
            }
            case 11 -> { // unusual methods and version headers
                String[] methods = {"PUT", "PATCH", "OPTIONS", "TRACE", "FOO"};
                method = methods[r.nextInt(methods.length)];
                if (r.nextBoolean()) {
                    headers.add("OJS-Version: 9.9");
                }
            }
            case 12 -> { // bytes that are not UTF-8
                body = new byte[] {'{', '"', 't', 'y', 'p', 'e', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
                method = "POST";
                if (ep.body == null) {
                    path = "/ojs/v1/jobs";
                }
            }
            default -> { // a huge count, delay or limit
                String[] fields = {"count", "delay_ms", "timeout_ms", "visibility_timeout_ms", "priority", "timeout",
                        "max_attempts", "limit"};
                String f = fields[r.nextInt(fields.length)];
                String v = r.nextBoolean() ? "9223372036854775807" : "-9223372036854775808";
                if (ep.body == null) {
                    path = path + (path.contains("?") ? "&" : "?") + f + "=" + v;
                } else {
                    bodyText = bodyText.replaceFirst("\\{", "{\"" + f + "\":" + v + ",");
                    bodyText = bodyText.replaceAll("(\"" + f + "\":)(-?[0-9.]+)", "$1" + v);
                }
            }
        }
        if (body == null && bodyText != null) {
            body = bodyText.getBytes(StandardCharsets.UTF_8);
        }
        if (body != null && headers.stream().noneMatch(h -> h.startsWith("Content-Type"))) {
            headers.add("Content-Type: application/json");
        }
        Answer a = send(method, path, headers, body);
        check(a, method, path, kind);
    }

    static String nulInPath(String path, Random r) {
        if (path.contains("?")) {
            return path.replaceFirst("=([^&]*)", "=$1%00x");
        }
        // the last segment, or the one before an action like /pause
        return r.nextBoolean() ? path.replaceFirst("/([^/]+)$", "/$1%00x")
                : path.replaceFirst("/([^/]+)/([a-z]+)$", "/$1%00x/$2");
    }

    static void check(Answer a, String method, String path, int kind) {
        String what = "kind " + kind + " " + method + " " + (path.length() > 120 ? path.substring(0, 120) + "..." : path);
        if (a.status == 0) {
            noEnvelope.incrementAndGet();
            example("no answer " + what + " -> " + a.body);
        } else if (a.status >= 500) {
            fiveXx.incrementAndGet();
            example("5xx " + a.status + " " + what + " -> " + a.body);
        } else if (a.status >= 400 && !envelope(a)) {
            noEnvelope.incrementAndGet();
            example("no envelope " + a.status + " " + what + " -> headers " + a.headers.keySet() + " body " + a.body);
        }
    }

    static boolean envelope(Answer a) {
        String id = a.headers.get("x-request-id");
        return id != null && a.headers.containsKey("ojs-version")
                && a.body.startsWith("{\"error\":{") && a.body.contains("\"code\":\"") && a.body.contains("\"message\":\"")
                && a.body.contains("\"request_id\":\"" + id + "\"");
    }

    // ---- JSON trees: Map / List / String / Number / Boolean / Raw, written by hand

    record Raw(String text) {
    }

    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** A copy of {@code tree} with one leaf (chosen at random among all leaves) replaced by {@code f(leaf)}. */
    static Object replaceOne(Object tree, Random r, java.util.function.UnaryOperator<Object> f) {
        int leaves = countLeaves(tree);
        int[] target = {r.nextInt(Math.max(1, leaves))};
        return copy(tree, target, f);
    }

    static int countLeaves(Object o) {
        if (o instanceof Map<?, ?> m) {
            return m.values().stream().mapToInt(Fuzz::countLeaves).sum();
        }
        if (o instanceof List<?> l) {
            return l.stream().mapToInt(Fuzz::countLeaves).sum();
        }
        return 1;
    }

    static Object copy(Object o, int[] target, java.util.function.UnaryOperator<Object> f) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put((String) e.getKey(), copy(e.getValue(), target, f));
            }
            return out;
        }
        if (o instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            for (Object e : l) {
                out.add(copy(e, target, f));
            }
            return out;
        }
        return target[0]-- == 0 ? f.apply(o) : o;
    }

    static String json(Object o) {
        StringBuilder b = new StringBuilder();
        write(b, o);
        return b.toString();
    }

    static void write(StringBuilder b, Object o) {
        if (o == null) {
            b.append("null");
        } else if (o instanceof Raw raw) {
            b.append(raw.text);
        } else if (o instanceof String s) {
            b.append('"');
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    default -> {
                        if (c < 0x20) {
                            b.append(String.format("\\u%04x", (int) c));
                        } else {
                            b.append(c);
                        }
                    }
                }
            }
            b.append('"');
        } else if (o instanceof Map<?, ?> m) {
            b.append('{');
            Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                write(b, e.getKey());
                b.append(':');
                write(b, e.getValue());
                if (it.hasNext()) {
                    b.append(',');
                }
            }
            b.append('}');
        } else if (o instanceof List<?> l) {
            b.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                write(b, l.get(i));
            }
            b.append(']');
        } else {
            b.append(o);
        }
    }

    // ---- raw HTTP/1.1: one request per connection, read to the end

    record Answer(int status, Map<String, String> headers, String body) {
    }

    static Answer send(String method, String path, List<String> headers, byte[] body) throws IOException {
        sent.incrementAndGet();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 5000);
            s.setSoTimeout(30_000);
            StringBuilder req = new StringBuilder();
            req.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
            req.append("Host: ").append(host).append(':').append(port).append("\r\n");
            req.append("Connection: close\r\n");
            if (token != null) {
                req.append("Authorization: Bearer ").append(token).append("\r\n");
            }
            for (String h : headers) {
                req.append(h).append("\r\n");
            }
            if (body != null) {
                req.append("Content-Length: ").append(body.length).append("\r\n");
            }
            req.append("\r\n");
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            Answer a = read(s.getInputStream());
            byStatus.computeIfAbsent(String.valueOf(a.status), k -> new AtomicInteger()).incrementAndGet();
            return a;
        }
    }

    static Answer read(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        try {
            while ((n = in.read(buf)) > 0) {
                all.write(buf, 0, n);
            }
        } catch (java.net.SocketException e) {
            // the server may close after answering while we still write or read: keep what arrived
        }
        String text = all.toString(StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.1 ") || end < 0) {
            return new Answer(0, Map.of(), "unparseable answer: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int c = lines[i].indexOf(':');
            if (c > 0) {
                headers.put(lines[i].substring(0, c).trim().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).trim());
            }
        }
        String raw = text.substring(end + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            raw = dechunk(raw);
        }
        return new Answer(status, headers, new String(raw.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
    }

    static String dechunk(String s) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            int eol = s.indexOf("\r\n", i);
            if (eol < 0) {
                break;
            }
            int len;
            try {
                len = Integer.parseInt(s.substring(i, eol).split(";")[0].trim(), 16);
            } catch (NumberFormatException e) {
                return s;
            }
            if (len == 0) {
                break;
            }
            out.append(s, eol + 2, Math.min(s.length(), eol + 2 + len));
            i = eol + 2 + len + 2;
        }
        return out.toString();
    }
}
