package dev.steadfast.cron;

import dev.steadfast.testsupport.TestClock;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** /ojs/v1/cron in the binding's (and SDKs') shape and in the conformance suite's. */
@QuarkusTest
class CronApiTest {

    @Inject
    TestClock clock;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static Response register(Object body) {
        return send(body).post("/ojs/v1/cron");
    }

    @Test
    void registerInTheBindingShapeAnswers201WithBothKeysAndTheNextRun() {
        Response r = register(obj("name", "daily-report", "cron", "0 9 * * *", "timezone", "America/New_York",
                "type", "report.generate", "args", arr("daily_summary"), "meta", obj("owner", "analytics"),
                "options", obj("queue", "reports", "timeout_ms", 300000)));
        r.then().statusCode(201);
        assertTrue(r.header("Location").endsWith("/ojs/v1/cron/daily-report"));
        Map<String, Object> c = path(r, "cron_job");
        assertEquals(c, path(r, "cron"));
        assertEquals("0 9 * * *", c.get("cron"));
        assertEquals("0 9 * * *", c.get("expression"));
        assertEquals("America/New_York", c.get("timezone"));
        assertEquals("report.generate", c.get("type"));
        assertEquals(List.of("daily_summary"), c.get("args"));
        assertEquals("active", c.get("status"));
        assertEquals(true, c.get("enabled"));
        assertEquals("skip", c.get("overlap_policy"));
        assertEquals(0, c.get("run_count"));
        assertTrue(Api.TIMESTAMP.matcher((String) c.get("created_at")).matches());
        Instant next = Instant.parse((String) c.get("next_run_at"));
        assertTrue(next.isAfter(clock.instant()));
        assertEquals(0, next.atZone(java.time.ZoneId.of("America/New_York")).getMinute());
        assertEquals(9, next.atZone(java.time.ZoneId.of("America/New_York")).getHour());
        assertEquals("reports", ((Map<?, ?>) c.get("options")).get("queue"));
    }

    @Test
    void registerInTheSuiteShapeListGetAndDelete() {
        register(obj("name", "alpha", "expression", "@hourly", "job_template", obj("type", "t.a", "args", arr(1),
                "options", obj("queue", "cron-q")))).then().statusCode(201)
                .body(at("cron.name", org.hamcrest.Matchers.equalTo("alpha")));
        register(obj("name", "beta", "expression", "30 2 * * *", "job_template", obj("type", "t.b", "args", arr())))
                .then().statusCode(201);
        Response list = request().get("/ojs/v1/cron");
        list.then().statusCode(200);
        assertEquals(List.of("alpha", "beta"), path(list, "crons.name"));
        assertEquals(List.of("alpha", "beta"), path(list, "cron_jobs.name"));
        assertEquals(2, (Integer) path(list, "pagination.total"));
        assertEquals(List.of("beta"), path(request().get("/ojs/v1/cron?limit=1&offset=1"), "cron_jobs.name"));
        request().get("/ojs/v1/cron/alpha").then().statusCode(200);
        Response del = request().delete("/ojs/v1/cron/alpha");
        del.then().statusCode(200);
        assertEquals(true, path(del, "deleted"));
        assertEquals("alpha", path(del, "cron.name"));
        assertEquals(List.of("beta"), path(request().get("/ojs/v1/cron"), "crons.name"));
        assertError(request().get("/ojs/v1/cron/alpha"), 404, "not_found");
        assertError(request().delete("/ojs/v1/cron/alpha"), 404, "not_found");
    }

    @Test
    void theEnqueueOverlapPolicyIsAcceptedAndShowsItsQueue() {
        Response r = register(obj("name", "serial", "cron", "*/5 * * * *", "type", "t.serial", "args", arr(),
                "overlap_policy", "enqueue"));
        r.then().statusCode(201);
        assertEquals("enqueue", path(r, "cron.overlap_policy"));
        assertEquals(0, (int) path(r, "cron.queued_occurrences"), "nothing held yet");
        assertEquals("enqueue", path(request().get("/ojs/v1/cron/serial"), "cron_job.overlap_policy"));
        Response suite = register(obj("name", "serial-suite", "expression", "@hourly", "overlap_policy", "enqueue",
                "job_template", obj("type", "t.serial", "args", arr())));
        suite.then().statusCode(201);
        assertEquals("enqueue", path(suite, "cron.overlap_policy"));
        assertNull(path(register(obj("name", "skipper", "cron", "@hourly", "type", "t.s", "args", arr())), "cron.queued_occurrences"), "only the enqueue policy has a queue");
    }

    @Test
    void aTakenNameIs409() {
        Map<String, Object> body = obj("name", "twice", "cron", "* * * * *", "type", "t.x", "args", arr());
        register(body).then().statusCode(201);
        assertError(register(body), 409, "duplicate");
    }

    @Test
    void badRegistrationsGetTheEnvelopeNamingTheField() {
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("cron", json("n1", "not a valid cron", null, null));
        cases.put("timezone", json("n2", "* * * * *", "\"timezone\":\"+05:00\",", null));
        cases.put("overlap_policy", json("n3", "* * * * *", "\"overlap_policy\":\"serial\",", null));
        cases.put("name", json("Bad Name", "* * * * *", null, null));
        cases.put("options.id", null);
        for (Map.Entry<String, String> e : cases.entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            Map<String, Object> err = assertError(register(e.getValue()), 400, "invalid_request");
            assertEquals(e.getKey(), detailField(err), e.getValue());
        }
        Map<String, Object> err = assertError(register(obj("name", "n5", "cron", "* * * * *", "job_template",
                obj("type", "t.x", "args", arr(), "options", obj("scheduled_at", "+PT5S")))), 400, "invalid_request");
        assertEquals("job_template.options.scheduled_at", detailField(err));
        assertError(register(obj("name", "n6", "cron", "* * * * *", "args", arr())), 400, "invalid_request");
        assertError(register("{\"name\": \"n7\", \"cron\": 5, \"type\": \"t.x\", \"args\": []}"), 400,
                "invalid_request");
        assertError(register(obj("name", "n8", "cron", "* * * * *", "type", "t.x", "args", arr(),
                "options", obj("retry", obj("max_attempts", -1)))), 422, "validation_error");
        assertEquals(List.of(), path(request().get("/ojs/v1/cron"), "crons"), "nothing was registered");
    }

    private static String json(String name, String cron, String extra, String unused) {
        return "{\"name\":\"" + name + "\",\"cron\":\"" + cron + "\"," + (extra == null ? "" : extra)
                + "\"type\":\"t.x\",\"args\":[]}";
    }

    @Test
    void pauseAndResume() {
        register(obj("name", "p", "cron", "*/5 * * * *", "type", "t.x", "args", arr())).then().statusCode(201);
        Response paused = request().post("/ojs/v1/cron/p/pause");
        paused.then().statusCode(200);
        assertEquals("paused", path(paused, "cron.status"));
        assertFalse((Boolean) path(paused, "cron.enabled"));
        assertNull(path(paused, "cron.next_run_at"));
        Response resumed = request().post("/ojs/v1/cron/p/resume");
        assertEquals("active", path(resumed, "cron.status"));
        assertTrue(Instant.parse(path(resumed, "cron.next_run_at")).isAfter(clock.instant()));
        assertError(request().post("/ojs/v1/cron/nope/pause"), 404, "not_found");
    }
}
