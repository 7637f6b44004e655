package dev.steadfast.testsupport;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.config.EncoderConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The OJS HTTP calls the API tests make, as thin wrappers over RestAssured. Bodies are maps (built with
 * {@link #obj}) serialized here with Jackson, so what goes on the wire is exactly the JSON the test wrote.
 * Every call returns the raw {@link Response}; the tests assert on status, headers and body themselves.
 *
 * <p>What the helpers read from an answer (a job's id, its view, FETCH's ids, an error) they read with Jackson, not
 * with RestAssured's paths: each path RestAssured evaluates is a Groovy script compiled for that one call, and a
 * profile of the API tests (2026-11-30, JFR) found RestAssured at 57% of the test JVM's CPU, the server at 19%; the
 * paths were the largest part, with the pretty-printed copy of every request and answer kept for the log of a
 * failed check (see {@link #request}).
 */
public final class Api {

    public static final String OJS_JSON = "application/openjobspec+json";
    public static final String JOBS = "/ojs/v1/jobs";
    public static final String FETCH = "/ojs/v1/workers/fetch";
    public static final String ACK = "/ojs/v1/workers/ack";
    public static final String NACK = "/ojs/v1/workers/nack";
    public static final String QUEUES = "/ojs/v1/queues";
    public static final String EVENTS = "/ojs/v1/events";
    public static final String RESET = "/ojs/v1/admin/reset";

    /** A lowercase hyphenated UUIDv7 (RFC 9562): version nibble 7, variant bits 10. */
    public static final Pattern UUID_V7 =
            Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");

    /** RFC 3339 UTC timestamp as the server writes it, e.g. 2026-02-12T10:30:00.123Z. */
    public static final Pattern TIMESTAMP = Pattern.compile("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z$");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();

    private Api() {
    }

    /**
     * RestAssured's settings of the moment with the log of a failed check kept (Quarkus turns it on) but not
     * pretty-printed: the copy is made for every request, and pretty-printing it took 12% of the test JVM's CPU
     * (2026-11-30, JFR). Every request of the tests starts from these ({@link #request}, {@code Console}).
     */
    public static RestAssuredConfig config() {
        RestAssuredConfig config = RestAssured.config();
        return config.logConfig(config.getLogConfig().enablePrettyPrinting(false));
    }

    /** A request with UTF-8 bodies and no charset appended to the content type behind the test's back. */
    public static RequestSpecification request() {
        return given().config(config().encoderConfig(EncoderConfig.encoderConfig()
                .defaultContentCharset("UTF-8")
                .appendDefaultContentCharsetToContentTypeIfUndefined(false)));
    }

    /**
     * Sends {@code token} as the Bearer token of every request from here on ({@code null}: none again): for a class in
     * a profile with API authentication on ({@code Profiles.Tokens}) whose requests are not about authentication. Set
     * it before each test and clear it after.
     */
    public static void sendToken(String token) {
        RestAssured.requestSpecification = token == null ? null
                : new RequestSpecBuilder().addHeader("Authorization", "Bearer " + token).build();
    }

    /** A request carrying {@code body} (a map, list or raw JSON string) as application/openjobspec+json. */
    public static RequestSpecification send(Object body) {
        return request().contentType(OJS_JSON).body(body instanceof String s ? s : json(body));
    }

    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** An ordered JSON object from alternating keys and values; a null value is written as JSON null. */
    public static Map<String, Object> obj(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("obj() takes key/value pairs");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    /** {@code value} as a Jackson tree, to compare JSON values without Java number-type noise. */
    public static JsonNode tree(Object value) {
        return JSON.valueToTree(value);
    }

    /** The part of {@code r}'s JSON body at {@code pointer} (e.g. "/job/args"), as a Jackson tree. */
    public static JsonNode tree(Response r, String pointer) {
        try {
            return JSON.readTree(r.asString()).at(pointer);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + r.asString(), e);
        }
    }

    /**
     * The JSON object at {@code pointer} of {@code r}'s body as a map, or null. Numbers as Jackson reads them
     * (2.0 is a Double), where RestAssured's {@code path} answers a Float: compare maps read the same way.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Response r, String pointer) {
        JsonNode node = tree(r, pointer);
        return node.isObject() ? JSON.convertValue(node, Map.class) : null;
    }

    public static List<Object> arr(Object... values) {
        return Arrays.asList(values);
    }

    /** Empties the server (POST /ojs/v1/admin/reset, enabled in the test profile). */
    public static void reset() {
        request().post(RESET).then().statusCode(200);
    }

    // ---- PUSH / INFO / CANCEL

    public static Response push(Object body) {
        return send(body).post(JOBS);
    }

    /** A minimal job body: {@code {"type": type, "args": [], "options": {"queue": queue}}}. */
    public static Map<String, Object> job(String type, String queue) {
        return obj("type", type, "args", arr(), "options", obj("queue", queue));
    }

    /** Pushes {@code body}, insists on 201 and returns the new job's id. */
    public static String enqueue(Object body) {
        Response r = push(body);
        if (r.statusCode() != 201) {
            fail("PUSH answered " + r.statusCode() + ": " + r.asString());
        }
        return tree(r, "/job/id").asText();
    }

    public static String enqueue(String type, String queue) {
        return enqueue(job(type, queue));
    }

    public static Response info(String id) {
        return request().get(JOBS + "/" + id);
    }

    /** The job envelope of INFO, insisting on 200. */
    public static Map<String, Object> jobView(String id) {
        Response r = info(id);
        assertEquals(200, r.statusCode(), () -> "INFO answered " + r.asString());
        return object(r, "/job");
    }

    public static String state(String id) {
        return (String) jobView(id).get("state");
    }

    public static Response cancel(String id) {
        return request().delete(JOBS + "/" + id);
    }

    // ---- FETCH / ACK / NACK

    public static Response fetch(String workerId, int count, String... queues) {
        return send(obj("queues", arr((Object[]) queues), "count", count, "worker_id", workerId)).post(FETCH);
    }

    /** The ids FETCH returned, in order, insisting on 200. */
    public static List<String> fetchIds(String workerId, int count, String... queues) {
        Response r = fetch(workerId, count, queues);
        assertEquals(200, r.statusCode(), () -> "FETCH answered " + r.asString());
        List<String> ids = new ArrayList<>();
        tree(r, "/jobs").forEach(j -> ids.add(j.path("id").asText()));
        return ids;
    }

    /**
     * FETCH until it answers a job, for at most 5 s: a due job's row may be locked for a moment by the retry
     * promoter, and the claim's SKIP LOCKED then passes over it, as it should.
     */
    public static List<String> fetchIdsSoon(String workerId, int count, String... queues) {
        return org.awaitility.Awaitility.await("a job from " + Arrays.toString(queues))
                .pollDelay(java.time.Duration.ZERO).pollInterval(java.time.Duration.ofMillis(20))
                .atMost(java.time.Duration.ofSeconds(5))
                .until(() -> fetchIds(workerId, count, queues), ids -> !ids.isEmpty());
    }

    /** Fetches exactly one job and returns its id; fails when the queues gave nothing. */
    public static String fetchOne(String workerId, String... queues) {
        List<String> ids = fetchIds(workerId, 1, queues);
        assertEquals(1, ids.size(), "expected one job from " + Arrays.toString(queues));
        return ids.get(0);
    }

    public static Response ack(String id) {
        return send(obj("job_id", id)).post(ACK);
    }

    public static Response ack(String id, String workerId, Object result) {
        return send(obj("job_id", id, "worker_id", workerId, "result", result)).post(ACK);
    }

    public static Response nack(String id, Map<String, Object> error) {
        return send(obj("job_id", id, "error", error)).post(NACK);
    }

    /** A worker error object: {@code {"code": code, "message": message}}. */
    public static Map<String, Object> error(String code, String message) {
        return obj("code", code, "message", message);
    }

    /** A retry policy that retries after exactly {@code interval} (no jitter, no growth). */
    public static Map<String, Object> fixedRetry(int maxAttempts, String interval) {
        return obj("max_attempts", maxAttempts, "initial_interval", interval, "backoff_coefficient", 1.0,
                "jitter", false);
    }

    // ---- errors

    /**
     * Asserts that {@code r} is the OJS error envelope with this status and code: a message, retryable false
     * (every client error), a request_id equal to the X-Request-Id response header, and the OJS headers.
     * Returns the error object for further checks.
     */
    public static Map<String, Object> assertError(Response r, int status, String code) {
        assertEquals(status, r.statusCode(), () -> "unexpected answer: " + r.asString());
        assertEquals(OJS_JSON, r.contentType(), "error content type");
        assertEquals("1.0", r.header("OJS-Version"), "OJS-Version header");
        Map<String, Object> e = object(r, "/error");
        if (e == null) {
            fail("no error envelope in: " + r.asString());
        }
        assertEquals(code, e.get("code"), () -> "error code in " + r.asString());
        if (!(e.get("message") instanceof String m) || m.isBlank()) {
            fail("error.message must be a non-empty string: " + r.asString());
        }
        assertEquals(Boolean.FALSE, e.get("retryable"), "error.retryable");
        String requestId = r.header("X-Request-Id");
        if (requestId == null || requestId.isBlank()) {
            fail("no X-Request-Id header on " + r.asString());
        }
        assertEquals(requestId, e.get("request_id"), "error.request_id mirrors X-Request-Id");
        return e;
    }

    /** The error's details.field. */
    @SuppressWarnings("unchecked")
    public static Object detailField(Map<String, Object> error) {
        Object d = error.get("details");
        return d instanceof Map<?, ?> m ? ((Map<String, Object>) m).get("field") : null;
    }

    // ---- system

    public static List<String> queueNames() {
        List<String> names = new ArrayList<>();
        tree(request().get(QUEUES).then().statusCode(200).extract().response(), "/queues")
                .forEach(q -> names.add(q.path("name").asText()));
        return names;
    }

    // ---- ids

    /** A fresh lowercase UUIDv7 for the current time. */
    public static String newUuidV7() {
        long msb = (System.currentTimeMillis() << 16) | 0x7000L | RANDOM.nextInt(1 << 12);
        long lsb = (RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb).toString();
    }
}
