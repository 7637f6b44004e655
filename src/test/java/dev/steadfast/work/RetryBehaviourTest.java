package dev.steadfast.work;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.fixedRetry;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The retry engine as a worker sees it: error types, handler codes, history limits, snooze. */
@QuarkusTest
class RetryBehaviourTest {

    @Inject
    TestClock clock;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static String job(String queue, Map<String, Object> retry) {
        return enqueue(obj("type", "retry.t", "args", arr(), "options", obj("queue", queue, "retry", retry)));
    }

    @Test
    void nonRetryablePrefixMatchSkipsRemainingAttempts() {
        Map<String, Object> retry = fixedRetry(5, "PT1S");
        retry.put("non_retryable_errors", arr("auth.*"));
        String id = job("nr-q", retry);
        fetchOne("w", "nr-q");
        nack(id, obj("type", "auth.token_expired", "message", "expired")).then()
                .body(at("state", equalTo("discarded"))).body(at("attempt", equalTo(1)));
        String other = job("nr-q", retry);
        fetchOne("w", "nr-q");
        nack(other, obj("type", "auth", "message", "not a prefix match")).then()
                .body(at("state", equalTo("retryable")));
    }

    @Test
    void handlerCodesOverrideThePolicy() {
        String discard = job("hc-q", fixedRetry(5, "PT1S"));
        fetchOne("w", "hc-q");
        nack(discard, obj("code", "DISCARD", "type", "payment.declined", "message", "no"))
                .then().body(at("state", equalTo("discarded"))).body(at("dead_letter", equalTo(false)));
        String dead = job("hc-q", fixedRetry(5, "PT1S"));
        fetchOne("w", "hc-q");
        nack(dead, obj("code", "DEAD_LETTER", "type", "payment.stolen", "message", "fraud"))
                .then().body(at("state", equalTo("discarded"))).body(at("dead_letter", equalTo(true)));
        String fail = job("hc-q", fixedRetry(5, "PT1S"));
        fetchOne("w", "hc-q");
        nack(fail, obj("code", "FAIL", "message", "permanent")).then().body(at("state", equalTo("discarded")));
        Map<String, Object> error = (Map<String, Object>) jobView(fail).get("error");
        assertEquals("FAIL", error.get("handler_code"));
        String retry = job("hc-q", obj("max_attempts", 1));
        fetchOne("w", "hc-q");
        nack(retry, obj("code", "RETRY", "message", "again please")).then().body(at("state", equalTo("discarded")));
    }

    /** What the JavaScript SDK 0.4.0 sends when a handler throws: no type, handler_error, the stack in details. */
    @Test
    void aFailWithoutTypeButWithAStackIsAHandlerError() {
        String id = job("ht-q", obj("max_attempts", 3, "initial_interval", "PT1H", "max_interval", "PT2H"));
        fetchOne("w", "ht-q");
        nack(id, obj("code", "handler_error", "message", "Cannot read properties of undefined", "retryable", true,
                "details", obj("stack", "TypeError: Cannot read properties of undefined\n    at handler (x.js:1)")))
                .then().statusCode(200).body(at("state", equalTo("retryable")));
        Map<String, Object> view = jobView(id);
        assertEquals("HandlerError", ((Map<?, ?>) view.get("error")).get("type"), view::toString);
        assertEquals("HandlerError", ((Map<?, ?>) ((List<?>) view.get("errors")).get(0)).get("type"));
        String bare = job("ht-q", obj("max_attempts", 1));
        fetchOne("w", "ht-q");
        nack(bare, obj("message", "something odd")).then().statusCode(200);
        assertEquals("InternalServerError", ((Map<?, ?>) jobView(bare).get("error")).get("type"),
                "without a stack: what the conformance suite asks for");
    }

    @Test
    void theHistoryKeepsTheMostRecentEntriesAndTruncatesBacktraces() {
        String id = job("hist-q", obj("max_attempts", 60, "initial_interval", "PT0.001S", "max_interval", "PT0.001S",
                "jitter", false));
        List<String> frames = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            frames.add("at frame" + i + "(File.java:" + i + ")");
        }
        for (int i = 1; i <= 55; i++) {
            if (i > 1) {
                clock.advance(Duration.ofMillis(1)); // the retry's delay
            }
            assertEquals(List.of(id), Api.fetchIdsSoon("w", 1, "hist-q"));
            nack(id, obj("type", "E" + i, "message", "failure " + i, "backtrace", frames)).then().statusCode(200);
        }
        Map<String, Object> job = jobView(id);
        List<Map<String, Object>> errors = (List<Map<String, Object>>) job.get("errors");
        assertEquals(50, errors.size(), "the default keeps the 50 most recent");
        assertEquals("E6", errors.get(0).get("type"));
        assertEquals(55, errors.get(49).get("attempt"));
        List<String> bt = (List<String>) errors.get(49).get("backtrace");
        assertEquals(51, bt.size(), "50 frames and a marker");
        assertTrue(bt.get(50).contains("30 more"), bt.get(50));
    }

    @Test
    void snoozeHandsTheJobBackWithoutUsingAnAttempt() {
        String id = job("snooze-q", obj("max_attempts", 1));
        fetchOne("w", "snooze-q");
        send(obj("job_id", id, "worker_id", "w", "delay_ms", 3_600_000)).post("/ojs/v1/workers/snooze").then()
                .statusCode(200).body(at("state", equalTo("scheduled"))).body(at("snoozes", equalTo(1)));
        assertEquals(0, Api.fetchIds("w", 1, "snooze-q").size(), "not before its time");

        String now = job("snooze-q2", obj("max_attempts", 1));
        fetchOne("w", "snooze-q2");
        send(obj("job_id", now, "worker_id", "w", "requeue", true)).post("/ojs/v1/workers/nack").then()
                .statusCode(200).body(at("state", equalTo("available")));
        fetchOne("w", "snooze-q2");
        Map<String, Object> active = jobView(now);
        assertEquals(2, active.get("attempt"));
        nack(now, obj("message", "real failure")).then().body(at("state", equalTo("discarded")));
        assertEquals(1, ((List<?>) jobView(now).get("errors")).size(), "only the real failure is in the history");

        Api.assertError(send(obj("job_id", now, "delay_ms", 5)).post("/ojs/v1/workers/snooze"), 409, "conflict");
        Api.assertError(send(obj("job_id", id, "delay", "soon")).post("/ojs/v1/workers/snooze"), 400, "invalid_request");
    }

    @Test
    void lifecycleEventsAreCountedOnTheMetricsEndpoint() {
        String id = job("metrics-q", obj("max_attempts", 1, "on_exhaustion", "dead_letter"));
        fetchOne("w", "metrics-q");
        nack(id, obj("message", "boom")).then().statusCode(200);
        String body = request().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(body.contains("steadfast_jobs_enqueued_total{queue=\"metrics-q\",type=\"retry.t\"}"), body);
        assertTrue(body.contains("steadfast_jobs_dead_lettered_total{queue=\"metrics-q\",type=\"retry.t\"}"));
        assertTrue(body.contains("steadfast_job_wait_seconds_count{queue=\"metrics-q\",type=\"retry.t\"}"));
        request().get("/ojs/v1/events?types=dead_letter.added&queues=metrics-q").then().statusCode(200)
                .body(at("events[0].subject", equalTo(id)));
        request().get("/ojs/v1/retry-policies").then().statusCode(200)
                .body(at("default.max_attempts", equalTo(3))).body(at("precedence[0]", equalTo("job")));
        request().get("/ojs/manifest").then().body(at("extensions", org.hamcrest.Matchers.hasItem("snooze")))
                .body(at("conformance_level", equalTo(4))).body(at("capabilities.dead_letter", equalTo(true)))
                .body(at("capabilities.cron_jobs", equalTo(true))).body(at("capabilities.job_ttl", equalTo(true)));
        request().get("/ojs/v1/workers/heartbeat").then().statusCode(405)
                .body(at("error.code", containsString("invalid")));
    }
}
