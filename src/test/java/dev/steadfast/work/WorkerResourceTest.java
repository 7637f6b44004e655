package dev.steadfast.work;

import static dev.steadfast.testsupport.Api.FETCH;
import static dev.steadfast.testsupport.Api.NACK;
import static dev.steadfast.testsupport.Api.TIMESTAMP;
import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.cancel;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetch;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.fixedRetry;
import static dev.steadfast.testsupport.Api.job;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.newUuidV7;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JsonPaths;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** FETCH, ACK and FAIL (nack) (ojs-http-binding.md 7.3-7.5, 10.1-10.3). */
@QuarkusTest
class WorkerResourceTest {

    @Inject
    TestClock clock;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void aWorkerThatOnlyFetchesIsListedAmongTheWorkers() {
        String worker = "w-fetch-only-" + newUuidV7();
        enqueue("email.send", "fetch-only");
        assertEquals(1, fetchIds(worker, 1, "fetch-only").size());
        List<Map<String, Object>> items = path(Api.request().get("/ojs/v1/admin/workers"), "items");
        assertTrue(items.stream().anyMatch(w -> worker.equals(w.get("id")) && "running".equals(w.get("state"))),
                items::toString);
    }

    /** Enqueues a job into {@code queue} with {@code retry} as its policy and fetches it for {@code worker}. */
    private static String activeJob(String queue, Map<String, Object> retry, String worker) {
        String id = enqueue(obj("type", "test.job", "args", arr(), "options", obj("queue", queue, "retry", retry)));
        assertEquals(id, fetchOne(worker, queue));
        return id;
    }

    // ---------------------------------------------------------------- FETCH

    @Test
    void fetchingAnEmptyQueueAnswers200WithNoJobs() {
        Response r = fetch("w1", 5, "empty");

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals(List.of(), path(r, "jobs"));
    }

    @Test
    void jobsOfOneQueueAreFetchedInTheOrderTheyWereEnqueued() {
        String a = enqueue(job("test.job", "fifo"));
        String b = enqueue(job("test.job", "fifo"));
        String c = enqueue(job("test.job", "fifo"));
        String d = enqueue(job("test.job", "fifo"));

        assertEquals(a, fetchOne("w1", "fifo"));
        assertEquals(List.of(b, c), fetchIds("w1", 2, "fifo"));
        assertEquals(List.of(d), fetchIds("w1", 2, "fifo"));
    }

    @Test
    void higherPriorityJobsAreFetchedFirst() {
        String low = enqueue(obj("type", "test.job", "args", arr(), "options", obj("queue", "prio", "priority", -5)));
        String normal = enqueue(job("test.job", "prio"));
        String high = enqueue(obj("type", "test.job", "args", arr(), "options", obj("queue", "prio", "priority", 10)));
        String mid = enqueue(obj("type", "test.job", "args", arr(), "options", obj("queue", "prio", "priority", 5)));

        assertEquals(List.of(high, mid, normal, low), fetchIds("w1", 10, "prio"));
    }

    @Test
    void queuesAreFetchedInTheOrderTheyAreListed() {
        String lowOld = enqueue(job("test.job", "q-low"));
        String high1 = enqueue(job("test.job", "q-high"));
        String high2 = enqueue(job("test.job", "q-high"));
        String lowNew = enqueue(job("test.job", "q-low"));

        assertEquals(high1, fetchOne("w1", "q-high", "q-low"), "the first listed queue wins even with an older job elsewhere");
        assertEquals(List.of(high2, lowOld), fetchIds("w1", 2, "q-high", "q-low"));
        assertEquals(List.of(lowNew), fetchIds("w1", 5, "q-high", "q-low"));
    }

    @Test
    void fetchReturnsAtMostCountJobs() {
        for (int i = 0; i < 5; i++) {
            enqueue(job("test.job", "counted"));
        }

        assertEquals(3, fetchIds("w1", 3, "counted").size());
        assertEquals(2, fetchIds("w1", 3, "counted").size());
        assertEquals(0, fetchIds("w1", 3, "counted").size());
    }

    @Test
    void withoutACountFetchReturnsOneJob() {
        enqueue(job("test.job", "default"));
        enqueue(job("test.job", "default"));

        Response r = send(obj("queues", arr("default"))).post(FETCH);

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals(1, JsonPaths.<List<?>>path(r, "jobs").size());
    }

    @Test
    void aFetchedJobIsActiveWithItsFirstAttemptAndALease() {
        String id = enqueue(job("test.job", "default"));
        Instant before = clock.instant().minusSeconds(1);

        Response r = fetch("worker-7", 1, "default");

        assertEquals(200, r.statusCode(), r.asString());
        Map<String, Object> job = path(r, "jobs[0]");
        assertEquals(id, job.get("id"));
        assertEquals("active", job.get("state"));
        assertEquals(1, job.get("attempt"));
        assertEquals("worker-7", job.get("worker_id"));
        Instant started = Instant.parse((String) job.get("started_at"));
        Instant lease = Instant.parse((String) job.get("lease_expires_at"));
        assertTrue(started.isAfter(before), "started_at " + started);
        assertTrue(lease.isAfter(started), "lease_expires_at " + lease + " after started_at " + started);

        Map<String, Object> read = jobView(id);
        assertEquals("active", read.get("state"));
        assertEquals(1, read.get("attempt"));
        assertEquals("worker-7", read.get("worker_id"));
        assertEquals(job.get("started_at"), read.get("started_at"));
    }

    @Test
    void fetchAcceptsCountsUpToTheConfiguredMaximum() {
        enqueue(job("test.job", "default"));

        assertEquals(1, fetchIds("w1", 1000, "default").size());
    }

    @Test
    void aFetchedJobIsNotFetchedAgain() {
        String id = enqueue(job("test.job", "default"));

        assertEquals(List.of(id), fetchIds("w1", 5, "default"));
        assertEquals(List.of(), fetchIds("w2", 5, "default"));
    }

    static List<Object[]> badFetches() {
        return List.of(
                new Object[] {obj("queues", arr("default"), "count", 0), "count"},
                new Object[] {obj("queues", arr("default"), "count", -1), "count"},
                new Object[] {obj("queues", arr("default"), "count", 1001), "count"},
                new Object[] {obj("queues", arr("default"), "count", "3"), "count"},
                new Object[] {obj("queues", arr("default"), "count", 1.5), "count"},
                new Object[] {obj("count", 1), "queues"},
                new Object[] {obj("queues", null), "queues"},
                new Object[] {obj("queues", arr()), "queues"},
                new Object[] {obj("queues", "default"), "queues"},
                new Object[] {obj("queues", arr(1)), "queues"},
                new Object[] {obj("queues", arr("Bad Queue!")), "options.queue"},
                new Object[] {obj("queues", arr("default"), "worker_id", 42), "worker_id"},
                new Object[] {obj("queues", arr("default"), "worker_id", ""), "worker_id"},
                new Object[] {obj("queues", arr("default"), "visibility_timeout_ms", 0), "visibility_timeout_ms"});
    }

    @ParameterizedTest
    @MethodSource("badFetches")
    void aMalformedFetchIs400NamingTheFieldAndTakesNothing(Map<String, Object> body, String field) {
        String id = enqueue(job("test.job", "default"));

        Map<String, Object> e = assertError(send(body).post(FETCH), 400, "invalid_request");

        assertEquals(field, detailField(e), () -> "details.field of " + e);
        assertEquals("available", state(id));
    }

    // ---------------------------------------------------------------- ACK

    @Test
    void ackCompletesTheJobAndTheResultIsRetrievable() {
        String id = enqueue(job("test.job", "default"));
        fetchOne("w1", "default");

        Response r = ack(id, "w1", obj("delivered", true, "message_id", "m-1"));

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals(Boolean.TRUE, path(r, "acknowledged"));
        assertEquals(id, path(r, "id"));
        assertEquals(id, path(r, "job_id"));
        assertEquals("completed", path(r, "state"));
        assertTrue(TIMESTAMP.matcher(JsonPaths.<String>path(r, "completed_at")).matches());
        assertEquals("completed", path(r, "job.state"));
        assertEquals(id, path(r, "job.id"));
        assertEquals(JsonPaths.<String>path(r, "completed_at"), path(r, "job.completed_at"));
        Map<String, Object> job = jobView(id);
        assertEquals("completed", job.get("state"));
        assertEquals(Map.of("delivered", true, "message_id", "m-1"), job.get("result"));
        assertEquals(JsonPaths.<String>path(r, "completed_at"), job.get("completed_at"));
        assertEquals(1, job.get("attempt"));
        assertFalse(job.containsKey("worker_id"), "a completed job holds no lease");
        assertFalse(job.containsKey("lease_expires_at"), "a completed job holds no lease");
    }

    @Test
    void ackWithoutAResultCompletesWithoutOne() {
        String id = enqueue(job("test.job", "default"));
        fetchOne("w1", "default");

        ack(id).then().statusCode(200);

        Map<String, Object> job = jobView(id);
        assertEquals("completed", job.get("state"));
        assertFalse(job.containsKey("result"), "result: " + job.get("result"));
    }

    @Test
    void ackAfterAFailedAttemptClearsTheError() {
        String id = activeJob("flaky", fixedRetry(3, "PT0.1S"), "w1");
        Response failed = nack(id, error("handler_error", "transient"));
        assertEquals("retryable", path(failed, "state"), failed.asString());
        assertEquals(100, JsonPaths.<Integer>path(failed, "retry_delay_ms"));
        assertNotNull(jobView(id).get("error"), "the failed attempt's error is recorded");

        clock.advance(Duration.ofMillis(100)); // the retry's delay
        assertEquals(List.of(id), Api.fetchIdsSoon("w1", 1, "flaky"));
        ack(id, "w1", obj("recovered", true)).then().statusCode(200);

        Map<String, Object> job = jobView(id);
        assertEquals("completed", job.get("state"));
        assertEquals(2, job.get("attempt"));
        assertFalse(job.containsKey("error"), "error must be cleared on completion: " + job.get("error"));
        assertEquals(Map.of("recovered", true), job.get("result"));
        assertEquals(1, ((List<?>) job.get("errors")).size(), "the history keeps the failed attempt");
    }

    @Test
    void ackOfAnAvailableJobIs409Conflict() {
        String id = enqueue(job("test.job", "default"));

        Map<String, Object> e = assertError(ack(id), 409, "conflict");

        assertEquals("available", ((Map<?, ?>) e.get("details")).get("current_state"));
        assertEquals("available", state(id));
    }

    @Test
    void ackOfACompletedJobIs409Conflict() {
        String id = enqueue(job("test.job", "default"));
        fetchOne("w1", "default");
        String completedAt = path(ack(id).then().statusCode(200).extract(), "completed_at");

        assertError(ack(id), 409, "conflict");
        assertEquals(completedAt, jobView(id).get("completed_at"), "the second ack changed nothing");
    }

    @Test
    void ackOfACancelledJobIs409Conflict() {
        String id = enqueue(job("test.job", "default"));
        cancel(id).then().statusCode(200);

        assertError(ack(id), 409, "conflict");
        assertEquals("cancelled", state(id));
    }

    @Test
    void ackOfAnUnknownJobIs404() {
        String id = newUuidV7();

        Map<String, Object> e = assertError(ack(id), 404, "not_found");

        assertEquals(id, ((Map<?, ?>) e.get("details")).get("resource_id"));
    }

    @Test
    void ackNamingAnotherWorkerIs409AndTheJobStaysActive() {
        String id = enqueue(job("test.job", "default"));
        fetchOne("owner", "default");

        Map<String, Object> e = assertError(ack(id, "intruder", null), 409, "conflict");

        assertEquals("owner", ((Map<?, ?>) e.get("details")).get("lease_owner"));
        Map<String, Object> job = jobView(id);
        assertEquals("active", job.get("state"));
        assertEquals("owner", job.get("worker_id"));
        ack(id, "owner", null).then().statusCode(200);
    }

    @Test
    void ackWithoutAJobIdIs400() {
        Map<String, Object> e = assertError(send(obj("result", obj())).post(Api.ACK), 400, "invalid_request");

        assertEquals("job_id", detailField(e));
    }

    @Test
    void ackWithAJobIdThatIsNotAUuidIs400() {
        assertEquals("job_id", detailField(assertError(ack("not-a-uuid"), 400, "invalid_request")));
        assertEquals("job_id", detailField(assertError(send(obj("job_id", 12)).post(Api.ACK), 400,
                "invalid_request")));
    }

    // ---------------------------------------------------------------- NACK

    @Test
    void aFailureWithAttemptsLeftMakesTheJobRetryable() {
        String id = activeJob("retrying", fixedRetry(3, "PT1S"), "w1");
        Instant before = clock.instant();

        Response r = nack(id, error("handler_error", "SMTP connection refused"));

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals(id, path(r, "id"));
        assertEquals(id, path(r, "job_id"));
        assertEquals("retryable", path(r, "state"));
        assertEquals(1, JsonPaths.<Integer>path(r, "attempt"));
        assertEquals(3, JsonPaths.<Integer>path(r, "max_attempts"));
        assertEquals(1000, JsonPaths.<Integer>path(r, "retry_delay_ms"));
        Instant next = Instant.parse(path(r, "next_attempt_at"));
        assertTrue(!next.isBefore(before.plusMillis(900)) && next.isBefore(clock.instant().plusMillis(1100)),
                "next_attempt_at " + next + " is about 1 s after the failure");
        Map<String, Object> job = jobView(id);
        assertEquals("retryable", job.get("state"));
        assertEquals("SMTP connection refused", ((Map<?, ?>) job.get("error")).get("message"));
        assertEquals(List.of(), fetchIds("w1", 1, "retrying"), "a retry is not fetchable before it is due");
        clock.set(next);
        assertEquals(List.of(id), Api.fetchIdsSoon("w1", 1, "retrying"), "and is once it is due");
    }

    @Test
    void aFailureOfTheLastAttemptDiscardsTheJobAndRecordsTheError() {
        String id = activeJob("once", obj("max_attempts", 1), "w1");

        Response r = nack(id, obj("code", "handler_error", "type", "payment.declined", "message", "card declined",
                "details", obj("card", "visa")));

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("discarded", path(r, "state"));
        assertEquals(1, JsonPaths.<Integer>path(r, "attempt"));
        assertEquals(1, JsonPaths.<Integer>path(r, "max_attempts"));
        assertEquals(Boolean.FALSE, path(r, "dead_letter"));
        assertTrue(TIMESTAMP.matcher(JsonPaths.<String>path(r, "discarded_at")).matches());
        assertEquals(JsonPaths.<String>path(r, "discarded_at"), path(r, "completed_at"));

        Map<String, Object> job = jobView(id);
        assertEquals("discarded", job.get("state"));
        assertEquals(JsonPaths.<String>path(r, "discarded_at"), job.get("discarded_at"));
        Map<?, ?> error = (Map<?, ?>) job.get("error");
        assertEquals("card declined", error.get("message"));
        List<?> errors = (List<?>) job.get("errors");
        assertEquals(1, errors.size());
        Map<?, ?> first = (Map<?, ?>) errors.get(0);
        assertEquals(1, first.get("attempt"));
        assertEquals("payment.declined", first.get("type"));
        assertEquals("handler_error", first.get("code"));
        assertEquals("card declined", first.get("message"));
        assertEquals(Map.of("card", "visa"), first.get("details"));
        assertTrue(TIMESTAMP.matcher((String) first.get("occurred_at")).matches(), "occurred_at " + first);
    }

    @Test
    void aNonRetryableErrorTypeDiscardsAtOnce() {
        String id = activeJob("strict", obj("max_attempts", 5, "non_retryable_errors", arr("auth.*", "Fatal")), "w1");

        Response r = nack(id, obj("code", "handler_error", "type", "auth.token_expired", "message", "expired"));

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("discarded", path(r, "state"));
        assertEquals(1, JsonPaths.<Integer>path(r, "attempt"));
        assertEquals(5, JsonPaths.<Integer>path(r, "max_attempts"));
        assertEquals("discarded", state(id));
    }

    @Test
    void anErrorTypeNotListedAsNonRetryableIsRetried() {
        String id = activeJob("strict", obj("max_attempts", 5, "non_retryable_errors", arr("auth.*")), "w1");

        Response r = nack(id, obj("code", "handler_error", "type", "network.reset", "message", "reset"));

        assertEquals("retryable", path(r, "state"), r.asString());
    }

    @Test
    void theDeadLetterHandlerCodeDeadLettersTheJob() {
        String id = activeJob("dlq", obj("max_attempts", 5), "w1");

        Response r = nack(id, error("DEAD_LETTER", "poison message"));

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("discarded", path(r, "state"));
        assertEquals(Boolean.TRUE, path(r, "dead_letter"));
        Map<String, Object> job = jobView(id);
        assertEquals("discarded", job.get("state"));
        assertEquals(Boolean.TRUE, job.get("dead_letter"));
    }

    @Test
    void theDiscardHandlerCodeDiscardsWithoutDeadLettering() {
        String id = activeJob("dlq", obj("max_attempts", 5), "w1");

        Response r = nack(id, error("DISCARD", "not worth retrying"));

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("discarded", path(r, "state"));
        assertEquals(Boolean.FALSE, path(r, "dead_letter"));
        assertEquals(Boolean.FALSE, jobView(id).get("dead_letter"));
    }

    @Test
    void aRequeueHandsTheJobBackToBeFetchedAgain() {
        String id = activeJob("requeue", obj("max_attempts", 3), "w1");

        Response r = send(obj("job_id", id, "requeue", true)).post(NACK);

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("available", path(r, "state"));
        assertEquals("available", state(id));
        assertEquals(id, fetchOne("w2", "requeue"));
        assertEquals("w2", jobView(id).get("worker_id"));
    }

    @Test
    void nackOfAJobThatIsNotActiveIs409() {
        String available = enqueue(job("test.job", "default"));
        Map<String, Object> e = assertError(nack(available, error("handler_error", "boom")), 409, "conflict");
        assertEquals("available", ((Map<?, ?>) e.get("details")).get("current_state"));
        assertEquals("available", state(available));

        fetchOne("w1", "default");
        ack(available).then().statusCode(200);
        assertError(nack(available, error("handler_error", "boom")), 409, "conflict");
        assertEquals("completed", state(available));
    }

    @Test
    void nackOfAnUnknownJobIs404() {
        assertError(nack(newUuidV7(), error("handler_error", "boom")), 404, "not_found");
    }

    @Test
    void nackWithoutAnErrorIs400AndTheJobStaysActive() {
        String id = activeJob("default", obj("max_attempts", 3), "w1");

        Map<String, Object> e = assertError(send(obj("job_id", id)).post(NACK), 400, "invalid_request");

        assertEquals("error", detailField(e));
        assertEquals("active", state(id));
    }

    static List<Object[]> badNacks() {
        return List.of(
                new Object[] {obj("error", "boom"), "error"},
                new Object[] {obj("error", obj("code", "handler_error")), "error.message"},
                new Object[] {obj("error", obj("code", "handler_error", "message", 42)), "error.message"},
                new Object[] {obj("error", obj("code", 500, "message", "boom")), "error.code"},
                new Object[] {obj("error", obj("message", "boom", "retryable", "yes")), "error.retryable"},
                new Object[] {obj("error", obj("message", "boom", "details", "x")), "error.details"},
                new Object[] {obj("error", obj("message", "boom", "backtrace", arr(1, 2))), "error.backtrace"},
                new Object[] {obj("error", obj("message", "boom"), "requeue", "yes"), "requeue"});
    }

    @ParameterizedTest
    @MethodSource("badNacks")
    void aMalformedNackIs400NamingTheFieldAndTheJobStaysActive(Map<String, Object> fields, String field) {
        String id = activeJob("default", obj("max_attempts", 3), "w1");
        Map<String, Object> body = obj("job_id", id);
        body.putAll(fields);

        Map<String, Object> e = assertError(send(body).post(NACK), 400, "invalid_request");

        assertEquals(field, detailField(e), () -> "details.field of " + e);
        assertEquals("active", state(id));
        assertEquals(List.of(), jobView(id).get("errors"));
    }

    @Test
    void nackNamingAnotherWorkerIs409AndTheJobStaysActive() {
        String id = activeJob("default", obj("max_attempts", 3), "owner");

        assertError(send(obj("job_id", id, "worker_id", "intruder", "error", error("handler_error", "x")))
                .post(NACK), 409, "conflict");

        assertEquals("active", state(id));
    }

    @Test
    void theBacktraceIsKeptInTheErrorHistory() {
        String id = activeJob("traced", obj("max_attempts", 3), "w1");
        List<Object> frames = arr("at Mailer.send(Mailer.java:42)", "at Worker.run(Worker.java:7)");

        nack(id, obj("code", "handler_error", "message", "boom", "backtrace", frames)).then().statusCode(200);

        List<?> errors = (List<?>) jobView(id).get("errors");
        assertEquals(frames, ((Map<?, ?>) errors.get(0)).get("backtrace"));
    }

    // ---------------------------------------------------------------- worker_id

    /** Worker ids with a control character: a bell, a line break, DEL and a C1 character (NEL). */
    static List<String> controlWorkerIds() {
        return List.of("w\u0007", "w1\nINFO forged log line", "w\u007F", "w\u0085");
    }

    /** The workers the server knows, by id. */
    private static List<Object> knownWorkers() {
        List<Map<String, Object>> items = path(Api.request().get("/ojs/v1/admin/workers"), "items");
        return items.stream().map(w -> w.get("id")).toList();
    }

    private static void assertRefusedNamingWorkerId(Response r) {
        Map<String, Object> e = assertError(r, 400, "invalid_request");
        assertEquals("worker_id", detailField(e), () -> "details.field of " + e);
        String received = (String) ((Map<?, ?>) e.get("details")).get("received");
        assertTrue(received.startsWith("a control character (U+"), received);
    }

    @ParameterizedTest
    @MethodSource("controlWorkerIds")
    void aFetchWithAControlCharacterInItsWorkerIdIs400AndTakesNothing(String worker) {
        String id = enqueue(job("test.job", "default"));

        assertRefusedNamingWorkerId(fetch(worker, 1, "default"));

        assertEquals("available", state(id));
        assertEquals(List.of(), knownWorkers(), "no worker was registered");
    }

    @ParameterizedTest
    @MethodSource("controlWorkerIds")
    void anAckWithAControlCharacterInItsWorkerIdIs400AndTheJobStaysActive(String worker) {
        String id = activeJob("default", obj("max_attempts", 3), "w1");

        assertRefusedNamingWorkerId(ack(id, worker, obj("done", true)));

        Map<String, Object> job = jobView(id);
        assertEquals("active", job.get("state"));
        assertEquals("w1", job.get("worker_id"));
        assertFalse(job.containsKey("result"), "no result was recorded");
    }

    @ParameterizedTest
    @MethodSource("controlWorkerIds")
    void aNackWithAControlCharacterInItsWorkerIdIs400AndTheJobStaysActive(String worker) {
        String id = activeJob("default", obj("max_attempts", 3), "w1");

        assertRefusedNamingWorkerId(send(obj("job_id", id, "worker_id", worker, "error", error("handler_error",
                "boom"))).post(NACK));
        assertRefusedNamingWorkerId(send(obj("job_id", id, "worker_id", worker, "requeue", true)).post(NACK));

        Map<String, Object> job = jobView(id);
        assertEquals("active", job.get("state"));
        assertEquals(1, job.get("attempt"));
        assertEquals(List.of(), job.get("errors"));
    }

    @ParameterizedTest
    @MethodSource("controlWorkerIds")
    void aHeartbeatWithAControlCharacterInItsWorkerIdIs400AndExtendsNothing(String worker) {
        String id = enqueue(job("test.job", "default"));
        send(obj("queues", arr("default"), "worker_id", "w1", "visibility_timeout_ms", 1000)).post(FETCH).then()
                .statusCode(200);
        Object lease = jobView(id).get("lease_expires_at");

        assertRefusedNamingWorkerId(send(obj("worker_id", worker, "active_jobs", arr(id),
                "visibility_timeout_ms", 600_000)).post("/ojs/v1/workers/heartbeat"));

        assertEquals(lease, jobView(id).get("lease_expires_at"), "the lease was not extended");
        assertFalse(knownWorkers().contains(worker), "the refused worker was not registered");
    }

    @Test
    void aBatchAckWithAControlCharacterInAWorkerIdIs400NamingTheItemAndAppliesNothing() {
        String first = activeJob("default", obj("max_attempts", 3), "w1");
        String second = activeJob("default", obj("max_attempts", 3), "w1");

        Map<String, Object> e = assertError(send(obj("worker_id", "w1", "acks", arr(obj("job_id", first),
                obj("job_id", second, "worker_id", "w1\r\n")))).post("/ojs/v1/workers/ack/batch"), 400,
                "invalid_request");
        assertEquals("worker_id", detailField(e));
        assertEquals(1, ((Map<?, ?>) e.get("details")).get("index"));
        assertRefusedNamingWorkerId(send(obj("worker_id", "w\u0007", "acks", arr(obj("job_id", first))))
                .post("/ojs/v1/workers/ack/batch"));

        assertEquals("active", state(first));
        assertEquals("active", state(second));
    }

    @Test
    void anOperatorCannotDirectAWorkerWhoseIdHoldsAControlCharacter() {
        Map<String, Object> e = assertError(Api.request().urlEncodingEnabled(false)
                .post("/ojs/v1/admin/workers/w%07x/quiet"), 400, "invalid_request");

        assertEquals("id", detailField(e));
        assertEquals(List.of(), knownWorkers(), "no worker row was created");
    }

    @Test
    void aWorkerIdInAnyScriptWithDotsColonsAndSlashesIsAcceptedAndRecordedAsSent() {
        // unique per run: FETCH records a worker as seen at most once per interval per instance
        String unicode = "worker-\u00fc-1-" + newUuidV7();
        String host = "host-3.example.com:4711/worker-2/" + newUuidV7();
        String acked = enqueue(job("test.job", "default"));
        String failed = activeJob("other", obj("max_attempts", 3), host);
        assertEquals(List.of(acked), fetchIds(unicode, 1, "default"));
        assertEquals(unicode, jobView(acked).get("worker_id"));

        Response beat = send(obj("worker_id", unicode, "active_jobs", arr(acked))).post("/ojs/v1/workers/heartbeat");
        assertEquals(200, beat.statusCode(), beat.asString());
        assertEquals(List.of(acked), path(beat, "jobs_extended"));
        ack(acked, unicode, obj("ok", true)).then().statusCode(200);
        Response nack = send(obj("job_id", failed, "worker_id", host, "error", error("handler_error", "boom")))
                .post(NACK);
        assertEquals(200, nack.statusCode(), nack.asString());

        assertEquals("completed", state(acked));
        assertEquals("retryable", state(failed));
        assertTrue(knownWorkers().containsAll(List.of(unicode, host)), knownWorkers()::toString);
    }
}
