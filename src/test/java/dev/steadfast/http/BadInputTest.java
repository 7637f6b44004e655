package dev.steadfast.http;

import static dev.steadfast.testsupport.Api.JOBS;
import static dev.steadfast.testsupport.Api.OJS_JSON;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.queueNames;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.testsupport.Api;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requests the server must refuse: each answer is the OJS error envelope with the right status and code (never
 * a 500), and nothing is written (ojs-http-binding.md 3.2, 4.1, 6.1, 9.1, 16).
 */
@QuarkusTest
class BadInputTest {

    private static final int LIMIT = 1024 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/ojs/v1/jobs")
    URI jobsUri;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    /** No job was enqueued anywhere: every successful PUSH registers its queue. */
    private static void assertNothingEnqueued() {
        assertEquals(List.of(), queueNames(), "no queue may have been created");
        assertEquals(List.of(), fetchIds("checker", 10, "default"), "no job may be in the default queue");
    }

    // ---------------------------------------------------------------- body shape

    @ParameterizedTest
    @ValueSource(strings = {"{\"type\": \"email.send\", \"args\": [", "{ invalid json }", "{\"type\": 'x'}",
            "{\"type\": \"email.send\", \"args\": []} trailing",
            "{\"type\": \"email.send\", \"args\": []} {\"type\": \"email.send\", \"args\": []}", "\u00ff\u00fe",
            "{\"type\": \"email.send\"", "{\"args\": [1, 2", "{\"args\": [[[\"x\"]]"})
    void malformedJsonIs400InvalidPayload(String body) {
        Map<String, Object> e = assertError(send(body).post(JOBS), 400, "invalid_payload");
        String message = (String) e.get("message");
        for (String internal : new String[] {"Source", "REDACTED", "`", "Feature", "jackson", "\n"}) {
            assertTrue(!message.contains(internal), () -> "library internals in: " + message);
        }
        assertTrue(message.matches("The request body is not valid JSON: .+ at line \\d+, column \\d+\\."), message);
        Map<?, ?> details = (Map<?, ?>) e.get("details");
        assertTrue(details.get("line") instanceof Integer && details.get("column") instanceof Integer,
                details::toString);
        assertNothingEnqueued();
    }

    @ParameterizedTest
    @ValueSource(strings = {"[{\"type\": \"email.send\", \"args\": []}]", "\"email.send\"", "42", "null", "true",
            "", "   "})
    void aBodyThatIsNotAJsonObjectIs400InvalidPayload(String body) {
        assertError(send(body).post(JOBS), 400, "invalid_payload");
        assertNothingEnqueued();
    }

    static Stream<Arguments> invalidEnvelopes() {
        return Stream.of(
                // args
                arguments("{\"type\": \"email.send\", \"args\": {\"to\": \"a@b.c\"}}", "args"),
                arguments("{\"type\": \"email.send\", \"args\": \"a@b.c\"}", "args"),
                arguments("{\"type\": \"email.send\", \"args\": 42}", "args"),
                arguments("{\"type\": \"email.send\", \"args\": true}", "args"),
                arguments("{\"type\": \"email.send\", \"args\": null}", "args"),
                arguments("{\"type\": \"email.send\"}", "args"),
                // type
                arguments("{\"args\": []}", "type"),
                arguments("{\"type\": null, \"args\": []}", "type"),
                arguments("{\"type\": 42, \"args\": []}", "type"),
                arguments("{\"type\": \"\", \"args\": []}", "type"),
                arguments("{\"type\": \"Email.Send\", \"args\": []}", "type"),
                arguments("{\"type\": \"email send\", \"args\": []}", "type"),
                arguments("{\"type\": \"1email.send\", \"args\": []}", "type"),
                arguments("{\"type\": \"email@send!\", \"args\": []}", "type"),
                arguments("{\"type\": \"email..send\", \"args\": []}", "type"),
                arguments("{\"type\": \"" + "a".repeat(256) + "\", \"args\": []}", "type"),
                // queue
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"queue\": \"Default\"}}", "options.queue"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"queue\": \"my_queue!\"}}", "options.queue"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"queue\": \"-invalid\"}}", "options.queue"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"queue\": \"my queue\"}}", "options.queue"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"queue\": \"\"}}", "options.queue"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"queue\": 7}}", "options.queue"),
                // priority
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"priority\": 101}}", "options.priority"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"priority\": -101}}", "options.priority"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"priority\": 999999}}", "options.priority"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"priority\": 99999999999999999999}}",
                        "options.priority"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"priority\": \"high\"}}", "options.priority"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"priority\": 1.5}}", "options.priority"),
                // id
                arguments("{\"id\": \"550e8400-e29b-41d4-a716-446655440000\", \"type\": \"email.send\", \"args\": []}", "id"),
                arguments("{\"id\": \"019461A8-1A2B-7C3D-8E4F-5A6B7C8D9E0F\", \"type\": \"email.send\", \"args\": []}", "id"),
                arguments("{\"id\": \"\", \"type\": \"email.send\", \"args\": []}", "id"),
                arguments("{\"id\": \"not-a-uuid-at-all\", \"type\": \"email.send\", \"args\": []}", "id"),
                arguments("{\"id\": 7, \"type\": \"email.send\", \"args\": []}", "id"),
                // other option types
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": \"x\"}", "options"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": [1]}", "options"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"tags\": \"x\"}}", "options.tags"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"tags\": [1]}}", "options.tags"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"tags\": [\"\"]}}", "options.tags"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"timeout_ms\": \"30s\"}}", "options.timeout_ms"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"timeout_ms\": 0}}", "options.timeout_ms"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"delay_until\": \"tomorrow\"}}",
                        "options.delay_until"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"delay_until\": \"2030-01-01T00:00:00\"}}",
                        "options.delay_until"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"retry\": \"fast\"}}", "options.retry"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"options\": {\"metadata\": 1}}", "options.metadata"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"meta\": \"x\"}", "meta"),
                arguments("{\"type\": \"email.send\", \"args\": [], \"priority\": \"high\"}", "priority"));
    }

    @ParameterizedTest
    @MethodSource("invalidEnvelopes")
    void anInvalidEnvelopeIs400NamingTheField(String body, String field) {
        Map<String, Object> e = assertError(send(body).post(JOBS), 400, "invalid_request");

        assertEquals(field, detailField(e), () -> "details.field of " + e);
        assertNothingEnqueued();
    }

    // ---------------------------------------------------------------- content type

    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "application/xml", "application/x-www-form-urlencoded",
            "application/openjobspec+xml"})
    void aBodyOfAnotherContentTypeIs400(String contentType) {
        Response r = request().contentType(contentType).body("{\"type\": \"email.send\", \"args\": []}").post(JOBS);

        Map<String, Object> e = assertError(r, 400, "invalid_request");

        assertEquals("Content-Type", detailField(e));
        assertNothingEnqueued();
    }

    @Test
    void aBodyWithoutAContentTypeIs400() throws Exception {
        HttpResponse<String> r = http().send(HttpRequest.newBuilder(jobsUri)
                .POST(HttpRequest.BodyPublishers.ofString("{\"type\": \"email.send\", \"args\": []}")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(400, r.statusCode(), r.body());
        assertEquals("invalid_request", JSON.readTree(r.body()).at("/error/code").asText());
        assertNothingEnqueued();
    }

    // ---------------------------------------------------------------- size

    /** A valid PUSH body of exactly {@code bytes} bytes (ASCII), so only its size can make it unacceptable. */
    private static String jobOfSize(int bytes) {
        String head = "{\"type\":\"big.job\",\"args\":[\"";
        String tail = "\"]}";
        return head + "x".repeat(bytes - head.length() - tail.length()) + tail;
    }

    @Test
    void aBodyOfExactlyTheLimitIsAccepted() throws Exception {
        String body = jobOfSize(LIMIT);
        assertEquals(LIMIT, body.getBytes(StandardCharsets.UTF_8).length);

        HttpResponse<String> r = http().send(HttpRequest.newBuilder(jobsUri).header("Content-Type", OJS_JSON)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(201, r.statusCode(), () -> r.body().substring(0, Math.min(500, r.body().length())));
        assertEquals(List.of("default"), queueNames());
    }

    @ParameterizedTest
    @ValueSource(ints = {LIMIT + 1, 3 * LIMIT})
    void aBodyOverTheLimitWithAContentLengthIs413(int size) throws Exception {
        HttpResponse<String> r = http().send(HttpRequest.newBuilder(jobsUri).header("Content-Type", OJS_JSON)
                .POST(HttpRequest.BodyPublishers.ofString(jobOfSize(size))).build(), HttpResponse.BodyHandlers.ofString());

        assertPayloadTooLarge(r);
        assertNothingEnqueued();
    }

    @ParameterizedTest
    @ValueSource(ints = {LIMIT + 1, 3 * LIMIT / 2, 3 * LIMIT})
    void aChunkedBodyOverTheLimitIs413(int size) throws Exception {
        byte[] body = jobOfSize(size).getBytes(StandardCharsets.UTF_8);
        HttpRequest req = HttpRequest.newBuilder(jobsUri).header("Content-Type", OJS_JSON)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build();
        assertEquals(-1, req.bodyPublisher().orElseThrow().contentLength(), "the body must go without a length");

        HttpResponse<String> r = http().send(req, HttpResponse.BodyHandlers.ofString());

        assertPayloadTooLarge(r);
        assertNothingEnqueued();
    }

    private static HttpClient http() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    private static void assertPayloadTooLarge(HttpResponse<String> r) throws Exception {
        String answer = r.statusCode() + " " + r.headers().map() + " body: '" + r.body() + "'";
        assertEquals(413, r.statusCode(), answer);
        assertEquals(OJS_JSON, r.headers().firstValue("Content-Type").orElse(null), answer);
        assertEquals("1.0", r.headers().firstValue("OJS-Version").orElse(null), answer);
        JsonNode e = JSON.readTree(r.body()).path("error");
        assertEquals("payload_too_large", e.path("code").asText(), answer);
        assertTrue(e.path("message").isTextual());
        assertEquals(false, e.path("retryable").asBoolean(true));
        assertEquals(LIMIT, e.path("details").path("limit_bytes").asLong());
        assertEquals(r.headers().firstValue("X-Request-Id").orElse("missing"), e.path("request_id").asText());
    }

    // ---------------------------------------------------------------- routing and versions

    @Test
    void anUnknownOjsPathIs404WithTheEnvelope() {
        assertError(request().get("/ojs/v1/nope"), 404, "not_found");
        assertError(send("{}").post("/ojs/v1/nope"), 404, "not_found");
        assertError(request().get("/ojs/v1/jobs/019539a4-0000-7000-8000-ffffffffffff/nope"), 404, "not_found");
        assertError(request().delete("/ojs/v2/jobs"), 404, "not_found");
    }

    @Test
    void aWrongMethodIs405WithTheEnvelope() {
        assertError(send("{\"type\": \"email.send\", \"args\": []}").put(JOBS), 405, "invalid_request");
        assertError(request().delete(JOBS), 405, "invalid_request");
        assertError(request().get(Api.FETCH), 405, "invalid_request");
        assertError(send("{}").put(JOBS + "/019539a4-0000-7000-8000-ffffffffffff"), 405, "invalid_request");
        assertNothingEnqueued();
    }

    @Test
    void a405NamesTheMethodsThePathTakes() {
        assertAllowed(request().get(Api.FETCH), List.of("POST"));
        assertAllowed(send("{}").put(JOBS + "/019539a4-0000-7000-8000-ffffffffffff"), List.of("DELETE", "GET"));
        assertAllowed(request().delete(JOBS), List.of("POST"));
    }

    private static void assertAllowed(io.restassured.response.Response r, List<String> methods) {
        Map<String, Object> e = assertError(r, 405, "invalid_request");
        assertEquals(methods, ((Map<?, ?>) e.get("details")).get("allowed"), r::asString);
        assertEquals(String.join(", ", methods), r.header("Allow"), "Allow header");
    }

    @ParameterizedTest
    @ValueSource(strings = {"2.0", "0.9", "banana"})
    void anUnsupportedOjsVersionIs422Unsupported(String version) {
        Map<String, Object> e = assertError(send("{\"type\": \"email.send\", \"args\": []}")
                .header("OJS-Version", version).post(JOBS), 422, "unsupported");

        assertEquals(version, ((Map<?, ?>) e.get("details")).get("requested_version"));
        assertNothingEnqueued();
    }
}
