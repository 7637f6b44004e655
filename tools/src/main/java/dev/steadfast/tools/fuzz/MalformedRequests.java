package dev.steadfast.tools.fuzz;

import static dev.steadfast.tools.fuzz.JsonTrees.json;
import static dev.steadfast.tools.fuzz.JsonTrees.map;
import static dev.steadfast.tools.fuzz.JsonTrees.raw;
import static dev.steadfast.tools.fuzz.JsonTrees.replaceOne;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;

/**
 * Malformed requests: each takes one endpoint's well-formed request and breaks it one way (the {@code kind}):
 * bad JSON, a wrong type or odd number at one field, a NUL in one string or key, a bad percent-escape or raw
 * braces in the path, a long request line, many query parameters or headers, a wrong or multipart content type, a
 * GET with a body, unusual methods, bytes that are not UTF-8, a huge count, delay or limit.
 */
final class MalformedRequests {

    /** One request to send as it is. */
    record Request(String method, String path, List<String> headers, byte[] body, int kind) {
    }

    private record Endpoint(String method, String path, Object body) {
    }

    static final String ID = "019a0000-0000-7000-8000-000000000001";

    private static final List<Endpoint> ENDPOINTS = endpoints();
    private static final Object[] ODD_VALUES = {9223372036854775807L, -9223372036854775808L, "99999999999999999999999",
            "1e308", "-1", "0", "1.5", "true", "null", "[]", "{}", "\"\"", "\"x\"", "\"\\u0000\"", "\"\\ud800\"",
            "123456789012345678901234567890", "-0.0", "1e-400", "9223372036854775808"};

    private MalformedRequests() {
    }

    private static List<Endpoint> endpoints() {
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
        // durable execution: both official SDKs' checkpoint routes
        e.add(new Endpoint("POST", "/ojs/v1/jobs/{id}/checkpoint", map("state", map("step", 2, "done", List.of("a")),
                "worker_id", "w")));
        e.add(new Endpoint("PUT", "/ojs/v1/jobs/{id}/checkpoint", map("state", List.of(1, 2, 3))));
        e.add(new Endpoint("GET", "/ojs/v1/jobs/{id}/checkpoint", null));
        e.add(new Endpoint("DELETE", "/ojs/v1/jobs/{id}/checkpoint", null));
        e.add(new Endpoint("POST", "/ojs/v1/checkpoints/{id}", map("state", map("k", "v"), "step_index", 1,
                "metadata", map("replay", List.of()))));
        e.add(new Endpoint("DELETE", "/ojs/v1/checkpoints/{id}", null));
        e.add(new Endpoint("GET", "/ojs/v1/checkpoints/{id}/resume", null));
        // webhooks: subscriptions (to a name that never resolves to a public address here) and deliveries
        String sub = "/ojs/v1/webhooks/subscriptions/sub_" + ID;
        e.add(new Endpoint("POST", "/ojs/v1/webhooks/subscriptions", map("url", "https://hooks.example.com/fuzz",
                "events", List.of("job.completed", "job.*"), "filter", map("queues", List.of("fuzz-bad"),
                        "job_types", List.of("fuzz.bad")), "metadata", map("k", "v"), "timeout_ms", 1000,
                "secret", "whk_fuzz_secret_0001")));
        e.add(new Endpoint("PATCH", sub, map("events", List.of("*"), "active", false, "filter", map("queues",
                List.of("q")), "timeout_ms", 2000, "url", "https://hooks.example.com/other")));
        e.add(new Endpoint("GET", "/ojs/v1/webhooks/subscriptions?limit=5&cursor=sub_" + ID, null));
        e.add(new Endpoint("POST", sub + "/rotate-secret", null));
        e.add(new Endpoint("DELETE", sub, null));
        e.add(new Endpoint("GET", "/ojs/v1/webhooks/deliveries?subscription_id=sub_" + ID + "&state=dead&limit=5",
                null));
        e.add(new Endpoint("POST", "/ojs/v1/webhooks/deliveries/del_" + ID + "/retry", null));
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

    /** One endpoint's request, broken one way, both chosen with {@code r}. */
    static Request next(Random r) {
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
                    bodyText = json(replaceOne(ep.body, r, v -> raw(o instanceof String s ? s : o.toString())));
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
        return new Request(method, path, headers, body, kind);
    }

    private static String nulInPath(String path, Random r) {
        if (path.contains("?")) {
            return path.replaceFirst("=([^&]*)", "=$1%00x");
        }
        // the last segment, or the one before an action like /pause
        return r.nextBoolean() ? path.replaceFirst("/([^/]+)$", "/$1%00x")
                : path.replaceFirst("/([^/]+)/([a-z]+)$", "/$1%00x/$2");
    }
}
