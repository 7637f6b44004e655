package dev.steadfast.operations;

import static dev.steadfast.testsupport.Api.EVENTS;
import static dev.steadfast.testsupport.Api.JOBS;
import static dev.steadfast.testsupport.Api.OJS_JSON;
import static dev.steadfast.testsupport.Api.QUEUES;
import static dev.steadfast.testsupport.Api.TIMESTAMP;
import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetch;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.info;
import static dev.steadfast.testsupport.Api.job;
import static dev.steadfast.testsupport.Api.newUuidV7;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static dev.steadfast.testsupport.Api.queueNames;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JsonPaths;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Manifest, health, queue list, event polling, the reset hook, and the headers every /ojs answer carries
 * (ojs-http-binding.md 3.2, 4, 6.5, 8.1, 11.1, 19, 21).
 */
@QuarkusTest
class SystemResourceTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static void assertOjsHeaders(Response r) {
        assertEquals("1.0", r.header("OJS-Version"), () -> "OJS-Version on " + r.statusCode() + " " + r.asString());
        assertEquals(OJS_JSON, r.contentType(), () -> "Content-Type on " + r.statusCode() + " " + r.asString());
        String id = r.header("X-Request-Id");
        assertTrue(id != null && !id.isBlank(), () -> "X-Request-Id on " + r.statusCode() + " " + r.asString());
    }

    // ---------------------------------------------------------------- manifest, health, queues

    @Test
    void theManifestDescribesTheImplementation() {
        Response r = request().get("/ojs/manifest");

        assertEquals(200, r.statusCode());
        assertOjsHeaders(r);
        assertEquals("1.0", path(r, "specversion"));
        assertEquals("1.0", path(r, "ojs_version"));
        assertEquals("steadfast", path(r, "implementation.name"));
        assertNotNull(path(r, "implementation.version"));
        assertEquals("java", path(r, "implementation.language"));
        int level = JsonPaths.<Integer>path(r, "conformance_level");
        assertTrue(level >= 0 && level <= 4, "conformance_level " + level);
        assertTrue(JsonPaths.<List<String>>path(r, "protocols").contains("http"));
        assertEquals("postgres", path(r, "backend"));
        assertEquals(Boolean.TRUE, path(r, "capabilities.delayed_jobs"));
        assertEquals("/ojs/v1/health", path(r, "endpoints.health"));
    }

    @Test
    void healthReportsOkWithTheDatabaseConnected() {
        Response r = request().get("/ojs/v1/health");

        assertEquals(200, r.statusCode());
        assertOjsHeaders(r);
        assertEquals("ok", path(r, "status"));
        assertEquals("ok", path(r, "backend.status"));
        assertEquals("postgres", path(r, "backend.type"));
        assertTrue(JsonPaths.<Integer>path(r, "backend.latency_ms") >= 0);
    }

    @Test
    void theQueueListIsEmptyAfterAReset() {
        enqueue(job("test.job", "emails"));
        Api.reset();

        Response r = request().get(QUEUES);

        assertEquals(200, r.statusCode());
        assertEquals(List.of(), path(r, "queues"));
        assertEquals(0, JsonPaths.<Integer>path(r, "pagination.total"));
    }

    @Test
    void aPushedQueueIsListedAsActive() {
        enqueue(job("test.job", "emails"));
        enqueue(job("test.job", "emails"));
        enqueue(job("test.job", "billing"));

        Response r = request().get(QUEUES);

        assertEquals(200, r.statusCode());
        assertEquals(List.of("billing", "emails"), path(r, "queues.name"));
        Map<String, Object> emails = r.path("queues.find { it.name == 'emails' }");
        assertEquals("active", emails.get("status"));
        assertEquals(Boolean.FALSE, emails.get("paused"));
        assertTrue(TIMESTAMP.matcher((String) emails.get("created_at")).matches(), "created_at " + emails);
        assertEquals(2, JsonPaths.<Integer>path(r, "pagination.total"));
    }

    @Test
    void resetEmptiesEveryJob() {
        String id = enqueue(job("test.job", "default"));

        Response r = request().post(Api.RESET);

        assertEquals(200, r.statusCode());
        assertEquals(Boolean.TRUE, path(r, "reset"));
        assertError(info(id), 404, "not_found");
        assertEquals(List.of(), queueNames());
    }

    // ---------------------------------------------------------------- events

    @Test
    void completingAJobEmitsJobCompletedWithItsData() {
        String id = enqueue(obj("type", "test.echo", "args", arr(), "options", obj("queue", "evq")));
        enqueue(obj("type", "test.echo", "args", arr(), "options", obj("queue", "other")));
        fetchOne("w1", "evq");
        ack(id, "w1", obj("ok", true)).then().statusCode(200);

        Response r = request().queryParam("types", "job.completed").queryParam("queues", "evq").get(EVENTS);

        assertEquals(200, r.statusCode(), r.asString());
        assertOjsHeaders(r);
        List<Map<String, Object>> events = path(r, "events");
        assertEquals(1, events.size(), r.asString());
        Map<String, Object> e = events.get(0);
        assertEquals("job.completed", e.get("type"));
        assertEquals(id, e.get("subject"));
        assertEquals("1.0", e.get("specversion"));
        assertTrue(((String) e.get("id")).startsWith("evt_"), "event id " + e.get("id"));
        assertTrue(TIMESTAMP.matcher((String) e.get("time")).matches());
        Map<?, ?> data = (Map<?, ?>) e.get("data");
        assertEquals("test.echo", data.get("job_type"));
        assertEquals("evq", data.get("queue"));
        assertEquals(1, data.get("attempt"));
        assertTrue(data.get("duration_ms") instanceof Integer ms && ms >= 0, "duration_ms " + data);
    }

    @Test
    void theEventListFiltersByTypeAndQueue() {
        String id = enqueue(job("test.echo", "evq"));
        enqueue(job("test.echo", "other"));

        List<String> enqueued = path(request().queryParam("types", "job.enqueued").queryParam("queues", "evq")
                .get(EVENTS).then().statusCode(200).extract(), "events.subject");
        List<String> allTypes = path(request().queryParam("queues", "evq")
                .get(EVENTS).then().statusCode(200).extract(), "events.type");

        assertEquals(List.of(id), enqueued);
        assertEquals(List.of("job.enqueued"), allTypes);
    }

    @Test
    void theAfterCursorReturnsOnlyLaterEvents() {
        String first = enqueue(job("test.echo", "evq"));
        String second = enqueue(job("test.echo", "evq"));
        Supplier<io.restassured.specification.RequestSpecification> enqueued =
                () -> request().queryParam("types", "job.enqueued").queryParam("queues", "evq");

        Response page1 = enqueued.get().queryParam("limit", 1).get(EVENTS);
        assertEquals(List.of(first), path(page1, "events.subject"));
        assertEquals(Boolean.TRUE, path(page1, "has_more"));
        String cursor = path(page1, "cursor");
        assertEquals(JsonPaths.<String>path(page1, "events[0].id"), cursor);

        Response page2 = enqueued.get().queryParam("after", cursor).get(EVENTS);
        assertEquals(List.of(second), path(page2, "events.subject"));
        assertEquals(Boolean.FALSE, path(page2, "has_more"));

        String third = enqueue(job("test.echo", "evq"));
        Response page3 = enqueued.get().queryParam("after", JsonPaths.<String>path(page2, "cursor")).get(EVENTS);
        assertEquals(List.of(third), path(page3, "events.subject"));

        Response none = enqueued.get().queryParam("after", JsonPaths.<String>path(page3, "cursor")).get(EVENTS);
        assertEquals(List.of(), path(none, "events"));
        assertEquals(JsonPaths.<String>path(page3, "cursor"), path(none, "cursor"), "an empty page keeps the cursor");
    }

    @Test
    void anEventLimitOutOfRangeIs400() {
        assertEquals("limit", Api.detailField(assertError(request().queryParam("limit", 0).get(EVENTS), 400,
                "invalid_request")));
        assertError(request().queryParam("limit", "lots").get(EVENTS), 400, "invalid_request");
    }

    // ---------------------------------------------------------------- headers

    @Test
    void everyOjsAnswerCarriesTheOjsHeaders() {
        String id = enqueue(job("test.job", "default"));
        List<Response> answers = List.of(
                request().get("/ojs/manifest"),
                request().get("/ojs/v1/health"),
                request().get(QUEUES),
                request().get(EVENTS),
                push(obj("type", "test.job", "args", arr())),
                info(id),
                fetch("w1", 1, "default"),
                fetch("w1", 1, "default"),
                info(newUuidV7()),
                send(obj("queues", arr())).post(Api.FETCH),
                Api.ack(id, "someone-else", null),
                request().get("/ojs/v1/nope"),
                request().post("/ojs/v1/workers/nope"),
                request().get("/ojs/v2/jobs"),
                request().put(JOBS),
                request().header("OJS-Version", "2.0").get("/ojs/v1/health"));

        for (Response r : answers) {
            assertOjsHeaders(r);
        }
        assertEquals(List.of(200, 200, 200, 200, 201, 200, 200, 200, 404, 400, 409, 404, 404, 404, 405, 422),
                answers.stream().map(Response::statusCode).toList());
    }

    @Test
    void eachRequestGetsItsOwnGeneratedRequestId() {
        String a = request().get("/ojs/v1/health").header("X-Request-Id");
        String b = request().get("/ojs/v1/health").header("X-Request-Id");

        assertNotEquals(a, b);
        assertTrue(a.startsWith("req_"), a);
    }

    @Test
    void aClientRequestIdIsEchoedAndNamedInErrors() {
        Response ok = request().header("X-Request-Id", "req_client-123").get("/ojs/v1/health");
        Response error = request().header("X-Request-Id", "trace.abc:42").get(JOBS + "/" + newUuidV7());

        assertEquals("req_client-123", ok.header("X-Request-Id"));
        assertEquals("trace.abc:42", error.header("X-Request-Id"));
        assertEquals("trace.abc:42", assertError(error, 404, "not_found").get("request_id"));
    }

    @Test
    void anUnusableClientRequestIdIsReplacedByAGeneratedOne() {
        Response r = request().header("X-Request-Id", "has spaces and <html>").get(JOBS + "/" + newUuidV7());

        String id = r.header("X-Request-Id");
        assertTrue(id.startsWith("req_"), id);
        assertEquals(id, assertError(r, 404, "not_found").get("request_id"));
    }

    @Test
    void anAcceptHeaderAskingForXmlStillGetsOjsJson() {
        String id = enqueue(job("test.job", "default"));

        Response found = request().accept("application/xml").get(JOBS + "/" + id);
        Response missing = request().accept("application/xml").get(JOBS + "/" + newUuidV7());
        Response pushed = send(obj("type", "test.job", "args", arr())).accept("application/xml").post(JOBS);

        assertEquals(200, found.statusCode());
        assertOjsHeaders(found);
        assertEquals(id, path(found, "job.id"));
        assertError(missing, 404, "not_found");
        assertEquals(201, pushed.statusCode(), pushed.asString());
        assertOjsHeaders(pushed);
    }

    @Test
    void applicationJsonIsAcceptedAsTheRequestContentType() {
        Response pushed = request().contentType("application/json").body(Api.json(job("test.job", "default")))
                .post(JOBS);
        assertEquals(201, pushed.statusCode(), pushed.asString());
        assertOjsHeaders(pushed);

        Response fetched = request().contentType("application/json; charset=utf-8")
                .body(Api.json(obj("queues", arr("default")))).post(Api.FETCH);
        assertEquals(200, fetched.statusCode(), fetched.asString());
        assertEquals(JsonPaths.<String>path(pushed, "job.id"), path(fetched, "jobs[0].id"));
    }

    @Test
    void ojsVersionOneIsAcceptedAndAnUnsupportedVersionIs422() {
        Response one = send(job("test.job", "default")).header("OJS-Version", "1.0").post(JOBS);
        assertEquals(201, one.statusCode(), one.asString());

        Response two = send(job("test.job", "default")).header("OJS-Version", "2.0").post(JOBS);
        assertError(two, 422, "unsupported");
        assertEquals(1, Api.fetchIds("w", 10, "default").size(), "the 2.0 request enqueued nothing");
    }
}
