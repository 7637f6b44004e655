package dev.steadfast.http;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.job;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What reaches a log record's MDC: the request id (and the trace of a request carrying a traceparent) on lines
 * written while the request is handled, also after asynchronous hops (a coalesced insert, a database query before
 * the exception mapper); and, on the job lifecycle events of the dev.steadfast.job-events category, the job's fields.
 */
@QuarkusTest
class LogContextTest {

    static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String JOBS = "dev.steadfast.job-events";

    /** A log line as a handler saw it: level, message and the MDC it carried. */
    record Line(String logger, Level level, String message, Map<String, String> mdc) {
    }

    static final class Capture extends Handler {
        final List<Line> lines = new CopyOnWriteArrayList<>();

        @Override
        public void publish(LogRecord r) {
            Map<String, String> mdc = r instanceof ExtLogRecord e ? new HashMap<>(e.getMdcCopy()) : Map.of();
            lines.add(new Line(r.getLoggerName(), r.getLevel(), r.getMessage(), mdc));
        }

        List<Line> about(String message) {
            return lines.stream().filter(l -> message.equals(l.message())).toList();
        }

        Line one(String message, String jobId) {
            List<Line> found = about(message).stream().filter(l -> jobId.equals(l.mdc().get("ojs.job.id"))).toList();
            assertEquals(1, found.size(), () -> "'" + message + "' for " + jobId + " in " + lines);
            return found.get(0);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    @TestHTTPResource("/")
    URL base;

    private final Capture capture = new Capture();
    private Level saved;

    @BeforeEach
    void listen() {
        Api.reset();
        Logger jobs = Logger.getLogger(JOBS);
        saved = jobs.getLevel();
        jobs.setLevel(Level.INFO);
        jobs.addHandler(capture);
        Logger.getLogger(ErrorMapper.class.getName()).addHandler(capture);
    }

    @AfterEach
    void stop() {
        Logger jobs = Logger.getLogger(JOBS);
        jobs.removeHandler(capture);
        jobs.setLevel(saved);
        Logger.getLogger(ErrorMapper.class.getName()).removeHandler(capture);
    }

    @Test
    void anEnqueuedLineCarriesTheRequestAndTheJob() {
        Response r = send(job("lc.one", "lc-one")).header("X-Request-Id", "req-lc-one").header("traceparent", PARENT)
                .post(Api.JOBS);
        assertEquals(201, r.statusCode(), r::asString);
        Line l = capture.one("job enqueued", path(r, "job.id"));
        assertEquals(JOBS, l.logger());
        assertEquals(org.jboss.logmanager.Level.INFO, l.level());
        assertEquals("req-lc-one", l.mdc().get("request_id"));
        assertEquals("lc.one", l.mdc().get("ojs.job.type"));
        assertEquals("lc-one", l.mdc().get("ojs.job.queue"));
        assertEquals("available", l.mdc().get("ojs.job.state"));
        assertEquals(TRACE_ID, l.mdc().get("trace_id"));
        assertEquals("00f067aa0ba902b7", l.mdc().get("span_id"));
    }

    @Test
    void concurrentPushesSharingACoalescedInsertEachKeepTheirOwnRequestId() {
        HttpClient client = HttpClient.newHttpClient();
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        int n = 64;
        for (int i = 0; i < n; i++) {
            HttpRequest req = HttpRequest.newBuilder(URI.create(base + "ojs/v1/jobs"))
                    .header("Content-Type", Api.OJS_JSON).header("X-Request-Id", "req-par-" + i)
                    .POST(HttpRequest.BodyPublishers.ofString(Api.json(job("lc.par", "lc-par")))).build();
            sent.add(client.sendAsync(req, HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < n; i++) {
            HttpResponse<String> res = sent.get(i).join();
            assertEquals(201, res.statusCode(), res.body());
            String id = idOf(res.body());
            assertEquals("req-par-" + i, capture.one("job enqueued", id).mdc().get("request_id"),
                    "the line about the job pushed by request " + i);
        }
    }

    private static String idOf(String body) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).at("/job/id").asText();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(body, e);
        }
    }

    @Test
    void startedCompletedFailedAndDiscardedLinesCarryTheJobsTraceAndTheirOwnRequest() {
        String id = path(send(job("lc.life", "lc-life")).header("traceparent", PARENT).post(Api.JOBS), "job.id");
        Response f = send(obj("queues", arr("lc-life"), "count", 1, "worker_id", "w-lc"))
                .header("X-Request-Id", "req-fetch").post(Api.FETCH);
        assertEquals(List.of(id), path(f, "jobs.id"));
        Line started = capture.one("job started", id);
        assertEquals("req-fetch", started.mdc().get("request_id"));
        assertEquals("w-lc", started.mdc().get("ojs.worker.id"));
        assertEquals("1", started.mdc().get("ojs.job.attempt"));
        assertEquals(TRACE_ID, started.mdc().get("trace_id"), "from the job's meta, not the (untraced) FETCH");
        send(obj("job_id", id, "worker_id", "w-lc")).header("X-Request-Id", "req-ack").post(Api.ACK)
                .then().statusCode(200);
        Line done = capture.one("job completed", id);
        assertEquals("req-ack", done.mdc().get("request_id"));
        assertEquals("completed", done.mdc().get("ojs.job.state"));
        assertEquals(TRACE_ID, done.mdc().get("trace_id"));
        assertTrue(done.mdc().containsKey("ojs.job.duration_ms"));

        String once = Api.enqueue(obj("type", "lc.fail", "args", arr(), "options",
                obj("queue", "lc-fail", "retry", obj("max_attempts", 1))));
        Api.fetchOne("w-lc", "lc-fail");
        send(obj("job_id", once, "error", Api.error("boom", "it broke"))).header("X-Request-Id", "req-nack")
                .post(Api.NACK).then().statusCode(200);
        Line failed = capture.one("job failed", once);
        assertEquals(org.jboss.logmanager.Level.WARN, failed.level());
        assertEquals("req-nack", failed.mdc().get("request_id"));
        assertEquals("it broke", failed.mdc().get("error.message"));
        assertNull(failed.mdc().get("trace_id"), "neither the job nor the request has a trace");
        Line discarded = capture.one("job discarded", once);
        assertEquals(org.jboss.logmanager.Level.ERROR, discarded.level());
        assertEquals("discarded", discarded.mdc().get("ojs.job.state"));
        assertEquals("req-nack", discarded.mdc().get("request_id"));
    }

    @Test
    void aRetryingLineNamesWhenTheNextAttemptIsDue() {
        String id = Api.enqueue(obj("type", "lc.retry", "args", arr(), "options",
                obj("queue", "lc-retry", "retry", Api.fixedRetry(3, "PT1M"))));
        Api.fetchOne("w", "lc-retry");
        Api.nack(id, Api.error("boom", "again")).then().statusCode(200);
        Line retrying = capture.one("job retrying", id);
        assertEquals("retryable", retrying.mdc().get("ojs.job.state"));
        assertTrue(Api.TIMESTAMP.matcher(retrying.mdc().get("ojs.job.next_at")).matches(), retrying::toString);
    }

    @Test
    void theExceptionMappersLineAfterADatabaseRoundTripCarriesTheRequest() {
        Api.request().header("X-Request-Id", "req-boom").header("traceparent", PARENT)
                .get("/test-only/fail-after-query").then().statusCode(500);
        List<Line> errors = capture.lines.stream().filter(l -> l.logger().equals(ErrorMapper.class.getName())).toList();
        assertEquals(1, errors.size(), capture.lines::toString);
        assertEquals("req-boom", errors.get(0).mdc().get("request_id"));
        assertEquals(TRACE_ID, errors.get(0).mdc().get("trace_id"));
    }

    @Test
    void atErrorOnlyTheJobsDiscardedAfterTheirLastAttemptAreLogged() {
        Logger.getLogger(JOBS).setLevel(org.jboss.logmanager.Level.ERROR);
        String id = Api.enqueue(obj("type", "lc.err", "args", arr(), "options",
                obj("queue", "lc-err", "retry", obj("max_attempts", 1))));
        Api.fetchOne("w", "lc-err");
        Api.nack(id, Api.error("boom", "last")).then().statusCode(200);
        assertEquals(List.of("job discarded"), capture.lines.stream().map(Line::message).toList());
        assertTrue(capture.one("job discarded", id).mdc().containsKey("ojs.job.dead_letter"));
    }

    @Test
    void withTheCategoryOffNothingIsLogged() {
        Logger.getLogger(JOBS).setLevel(Level.OFF);
        String id = Api.enqueue(job("lc.off", "lc-off"));
        Api.fetchOne("w", "lc-off");
        Api.ack(id).then().statusCode(200);
        assertEquals(List.of(), capture.lines);
    }
}
