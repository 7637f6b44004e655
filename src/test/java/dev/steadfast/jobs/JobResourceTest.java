package dev.steadfast.jobs;


import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JsonPaths;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import static dev.steadfast.testsupport.Api.TIMESTAMP;
import static dev.steadfast.testsupport.Api.UUID_V7;
import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.cancel;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.info;
import static dev.steadfast.testsupport.Api.job;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.newUuidV7;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.object;
import static dev.steadfast.testsupport.Api.push;
import static dev.steadfast.testsupport.Api.queueNames;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.Api.tree;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PUSH, INFO and CANCEL (ojs-http-binding.md 7.1, 7.7, 7.9, 9.1, 9.3, 9.4). */
@QuarkusTest
class JobResourceTest {

    @Inject
    TestClock clock;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    // ---------------------------------------------------------------- PUSH

    @Test
    void pushAnswers201WithALocationHeaderNamingTheNewJob() {
        Response r = push(obj("type", "email.send", "args", arr("a@example.com")));

        assertEquals(201, r.statusCode(), r.asString());
        String id = path(r, "job.id");
        String location = r.header("Location");
        assertEquals("/ojs/v1/jobs/" + id, URI.create(location).getPath(), "Location: " + location);
        Api.request().get(location).then().statusCode(200);
    }

    @Test
    void aGeneratedIdIsALowercaseUuidV7() {
        String a = enqueue(obj("type", "email.send", "args", arr()));
        String b = enqueue(obj("type", "email.send", "args", arr()));

        assertTrue(UUID_V7.matcher(a).matches(), a);
        assertTrue(UUID_V7.matcher(b).matches(), b);
        assertNotEquals(a, b);
        assertTrue(b.compareTo(a) > 0, "UUIDv7 ids sort in creation order");
    }

    @Test
    void aClientProvidedUuidV7IsKept() {
        String id = newUuidV7();

        Response r = push(obj("id", id, "type", "email.send", "args", arr()));

        assertEquals(201, r.statusCode(), r.asString());
        assertEquals(id, path(r, "job.id"));
        assertEquals(id, jobView(id).get("id"));
    }

    @Test
    void aDuplicateIdIsRefusedWith409DuplicateAndTheFirstJobIsUntouched() {
        String id = newUuidV7();
        enqueue(obj("id", id, "type", "email.send", "args", arr("first")));

        Map<String, Object> e = assertError(push(obj("id", id, "type", "other.type", "args", arr("second"))),
                409, "duplicate");

        assertEquals(Map.of("existing_job_id", id), e.get("details"));
        Map<String, Object> job = jobView(id);
        assertEquals("email.send", job.get("type"));
        assertEquals(List.of("first"), job.get("args"));
    }

    @Test
    void pushFillsInTheDefaults() {
        Map<String, Object> job = object(push(obj("type", "email.send", "args", arr(1, "two", obj("three", 3))))
                .then().statusCode(201).extract().response(), "/job");

        assertEquals("1.0", job.get("specversion"));
        assertEquals("email.send", job.get("type"));
        assertEquals(List.of(1, "two", Map.of("three", 3)), job.get("args"));
        assertEquals("default", job.get("queue"));
        assertEquals(0, job.get("priority"));
        assertEquals(0, job.get("attempt"));
        assertEquals(3, job.get("max_attempts"));
        assertEquals("available", job.get("state"));
        assertEquals(Map.of(), job.get("meta"));
        assertEquals(List.of(), job.get("tags"));
        assertTrue(TIMESTAMP.matcher((String) job.get("created_at")).matches(), "created_at " + job.get("created_at"));
        assertTrue(TIMESTAMP.matcher((String) job.get("enqueued_at")).matches(), "enqueued_at " + job.get("enqueued_at"));
        for (String absent : List.of("started_at", "completed_at", "cancelled_at", "discarded_at", "error", "result",
                "worker_id", "lease_expires_at")) {
            assertFalse(job.containsKey(absent), absent + " must be absent on a new job: " + job);
        }
        assertEquals(job, jobView((String) job.get("id")), "INFO shows what PUSH answered");
    }

    @Test
    void aFutureDelayUntilSchedulesTheJobAndItIsNotFetchable() {
        String at = clock.instant().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MILLIS).toString();
        Response r = push(obj("type", "report.build", "args", arr(), "options",
                obj("queue", "later", "delay_until", at)));

        assertEquals(201, r.statusCode(), r.asString());
        assertEquals("scheduled", path(r, "job.state"));
        String id = path(r, "job.id");
        assertEquals(Instant.parse(at), Instant.parse(jobView(id).get("scheduled_at").toString()));
        assertEquals(List.of(), fetchIds("w1", 10, "later"));
        assertEquals("scheduled", state(id));
    }

    @Test
    void aFutureScheduledAtInOptionsSchedulesTheJob() {
        String at = clock.instant().plus(1, ChronoUnit.DAYS).toString();
        String id = enqueue(obj("type", "report.build", "args", arr(), "options",
                obj("queue", "later", "scheduled_at", at)));

        assertEquals("scheduled", state(id));
        assertEquals(List.of(), fetchIds("w1", 10, "later"));
    }

    @Test
    void aFutureTopLevelScheduledAtSchedulesTheJob() {
        String at = clock.instant().plus(1, ChronoUnit.DAYS).toString();
        String id = enqueue(obj("type", "report.build", "args", arr(), "queue", "later", "scheduled_at", at));

        assertEquals("scheduled", state(id));
        assertEquals(List.of(), fetchIds("w1", 10, "later"));
    }

    @Test
    void aFutureTopLevelScheduledAtSchedulesTheJobEvenWhenOptionsAreGiven() {
        // ojs-core.md 5/6: scheduled_at is an envelope attribute; a future one MUST make the job scheduled.
        String at = clock.instant().plus(1, ChronoUnit.DAYS).toString();
        String id = enqueue(obj("type", "report.build", "args", arr(), "scheduled_at", at,
                "options", obj("queue", "later")));

        assertEquals("scheduled", state(id));
        assertEquals(List.of(), fetchIds("w1", 10, "later"));
    }

    @Test
    void aPastDelayUntilMakesTheJobAvailableAtOnce() {
        String at = clock.instant().minus(1, ChronoUnit.HOURS).toString();
        Response r = push(obj("type", "report.build", "args", arr(), "options",
                obj("queue", "past", "delay_until", at)));

        assertEquals(201, r.statusCode(), r.asString());
        assertEquals("available", path(r, "job.state"));
        assertEquals(List.of((String) path(r, "job.id")), fetchIds("w1", 10, "past"));
    }

    @Test
    void optionsMetadataIsMergedIntoMeta() {
        Map<String, Object> job = object(push(obj("type", "email.send", "args", arr(),
                "meta", obj("trace_id", "t-1"),
                "options", obj("metadata", obj("tenant", "acme", "n", 7))))
                .then().statusCode(201).extract().response(), "/job");

        assertEquals(Map.of("trace_id", "t-1", "tenant", "acme", "n", 7), job.get("meta"));
        assertEquals(job.get("meta"), jobView((String) job.get("id")).get("meta"));
    }

    @Test
    void unknownTopLevelFieldsAreReturnedVerbatim() {
        Map<String, Object> custom = obj("nested", obj("list", arr(1, 2.5, true, null, "s", 12345678901234L)),
                "n", 42);
        Response pushed = push(obj("type", "email.send", "args", arr(), "x_custom", custom, "x_flag", true));
        assertEquals(201, pushed.statusCode(), pushed.asString());
        Response read = info(path(pushed, "job.id"));

        for (Response r : List.of(pushed, read)) {
            assertEquals(tree(custom), tree(r, "/job/x_custom"));
            assertEquals(tree(true), tree(r, "/job/x_flag"));
        }
    }

    @Test
    void tagsTimeoutPriorityAndQueueAreKept() {
        Map<String, Object> job = object(push(obj("type", "email.send", "args", arr(), "options",
                obj("queue", "email", "priority", -7, "tags", arr("onboarding", "email"), "timeout_ms", 45_000)))
                .then().statusCode(201).extract().response(), "/job");

        Map<String, Object> read = jobView((String) job.get("id"));
        for (Map<String, Object> j : List.of(job, read)) {
            assertEquals("email", j.get("queue"));
            assertEquals(-7, j.get("priority"));
            assertEquals(List.of("onboarding", "email"), j.get("tags"));
            assertEquals(45_000, j.get("timeout_ms"));
        }
    }

    @Test
    void aPartialRetryPolicyIsMergedOverTheDefault() {
        Map<String, Object> job = object(push(obj("type", "email.send", "args", arr(), "options",
                obj("retry", obj("max_attempts", 5)))).then().statusCode(201).extract().response(), "/job");

        assertEquals(5, job.get("max_attempts"));
        @SuppressWarnings("unchecked")
        Map<String, Object> retry = (Map<String, Object>) job.get("retry");
        assertEquals(5, retry.get("max_attempts"));
        assertEquals("PT1S", retry.get("initial_interval"));
        assertEquals(2.0f, ((Number) retry.get("backoff_coefficient")).floatValue());
        assertEquals(Boolean.TRUE, retry.get("jitter"));
        assertEquals(retry, jobView((String) job.get("id")).get("retry"));
    }

    @Test
    void aJobWithoutAPolicyShowsTheWholeDefaultItsRowDoesNotRepeat() {
        Map<String, Object> job = object(push(obj("type", "email.send", "args", arr())).then().statusCode(201)
                .extract().response(), "/job");
        @SuppressWarnings("unchecked")
        Map<String, Object> retry = (Map<String, Object>) job.get("retry");
        assertEquals(3, retry.get("max_attempts"));
        assertEquals("PT1S", retry.get("initial_interval"));
        assertEquals("PT5M", retry.get("max_interval"));
        assertEquals("discard", retry.get("on_exhaustion"));
        assertEquals("exponential", retry.get("backoff_strategy"));
        assertEquals(retry, jobView((String) job.get("id")).get("retry"));
    }

    static List<Object[]> invalidRetryPolicies() {
        return List.of(
                new Object[] {obj("backoff_coefficient", 0.5), "backoff_coefficient"},
                new Object[] {obj("max_attempts", -1), "max_attempts"},
                new Object[] {obj("initial_interval", "5 seconds"), "initial_interval"},
                new Object[] {obj("max_interval", "PT"), "max_interval"},
                new Object[] {obj("max_retries", 4), "max_retries"});
    }

    @ParameterizedTest
    @MethodSource("invalidRetryPolicies")
    void anInvalidRetryPolicyIs422NamingTheFieldAndNothingIsEnqueued(Map<String, Object> policy, String field) {
        String id = newUuidV7();

        Map<String, Object> e = assertError(push(obj("id", id, "type", "email.send", "args", arr(),
                "options", obj("queue", "retrying", "retry", policy))), 422, "validation_error");

        assertEquals("validation_error", e.get("type"));
        assertTrue(((String) e.get("message")).contains(field), "message names " + field + ": " + e.get("message"));
        assertError(info(id), 404, "not_found");
        assertEquals(List.of(), queueNames());
    }

    // ---------------------------------------------------------------- INFO

    @Test
    void infoReturnsTheWholeEnvelope() {
        String id = enqueue(obj("type", "email.send", "args", arr("x"), "meta", obj("k", "v"),
                "options", obj("queue", "email", "priority", 3, "tags", arr("t"))));

        Response r = info(id);

        assertEquals(200, r.statusCode());
        Map<String, Object> job = object(r, "/job");
        assertEquals(id, job.get("id"));
        assertEquals("email.send", job.get("type"));
        assertEquals("email", job.get("queue"));
        assertEquals(List.of("x"), job.get("args"));
        assertEquals(Map.of("k", "v"), job.get("meta"));
        assertEquals(3, job.get("priority"));
        assertEquals("available", job.get("state"));
        assertEquals(0, job.get("attempt"));
        assertEquals(3, job.get("max_attempts"));
        assertEquals(List.of("t"), job.get("tags"));
        assertEquals(List.of(), job.get("errors"));
        assertTrue(job.get("created_at") instanceof String);
        assertTrue(job.get("enqueued_at") instanceof String);
    }

    @Test
    void infoOfAnUnknownJobIs404WithHintAndDocsUrl() {
        String id = newUuidV7();

        Map<String, Object> e = assertError(info(id), 404, "not_found");

        assertEquals(Map.of("resource_type", "job", "resource_id", id), e.get("details"));
        assertTrue(e.get("hint") instanceof String h && !h.isBlank(), "hint");
        assertTrue(e.get("docs_url") instanceof String d && !d.isBlank(), "docs_url");
    }

    @Test
    void infoOfAPathThatIsNotAUuidIs404() {
        assertError(info("not-a-uuid"), 404, "not_found");
        assertError(info("123"), 404, "not_found");
        assertError(info("019539a4-0000-7000-8000-ffffffffffff-extra"), 404, "not_found");
    }

    @Test
    void infoIsReadOnly() {
        String id = enqueue(job("email.send", "default"));

        Map<String, Object> first = jobView(id);
        Map<String, Object> second = jobView(id);

        assertEquals(first, second);
        assertEquals("available", second.get("state"));
        assertEquals(0, second.get("attempt"));
        assertEquals(List.of(id), fetchIds("w", 5, "default"), "reading a job does not take it");
    }

    // ---------------------------------------------------------------- CANCEL

    @Test
    void cancellingAnAvailableJobMakesItCancelled() {
        String id = enqueue(job("email.send", "default"));

        Response r = cancel(id);

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals(id, path(r, "job.id"));
        assertEquals("cancelled", path(r, "job.state"));
        assertEquals("available", path(r, "job.previous_state"));
        assertTrue(TIMESTAMP.matcher(JsonPaths.<String>path(r, "job.cancelled_at")).matches());
        Map<String, Object> read = jobView(id);
        assertEquals("cancelled", read.get("state"));
        assertEquals(JsonPaths.<String>path(r, "job.cancelled_at"), read.get("cancelled_at"));
    }

    @Test
    void aScheduledJobCanBeCancelled() {
        String id = enqueue(obj("type", "email.send", "args", arr(), "options",
                obj("delay_until", clock.instant().plus(1, ChronoUnit.HOURS).toString())));

        Response r = cancel(id);

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("cancelled", path(r, "job.state"));
        assertEquals("scheduled", path(r, "job.previous_state"));
    }

    @Test
    void anActiveJobCanBeCancelledAndItsWorkerCanNoLongerAckIt() {
        String id = enqueue(job("email.send", "default"));
        assertEquals(id, fetchOne("w1", "default"));

        Response r = cancel(id);

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("cancelled", path(r, "job.state"));
        assertEquals("active", path(r, "job.previous_state"));
        assertError(ack(id), 409, "conflict");
        assertEquals("cancelled", state(id));
    }

    @Test
    void cancellingACompletedJobIs409Conflict() {
        String id = enqueue(job("email.send", "default"));
        fetchOne("w1", "default");
        ack(id).then().statusCode(200);

        Map<String, Object> e = assertError(cancel(id), 409, "conflict");

        assertEquals("completed", ((Map<?, ?>) e.get("details")).get("current_state"));
        assertEquals("completed", state(id));
    }

    @Test
    void cancellingACancelledJobIs409Conflict() {
        String id = enqueue(job("email.send", "default"));
        cancel(id).then().statusCode(200);

        Map<String, Object> e = assertError(cancel(id), 409, "conflict");

        assertEquals("cancelled", ((Map<?, ?>) e.get("details")).get("current_state"));
    }

    @Test
    void aRetryableJobCanBeCancelledAndIsNotRetried() {
        Map<String, Object> retrying = obj("type", "email.send", "args", arr(), "options",
                obj("retry", Api.fixedRetry(3, "PT1S")));
        String id = enqueue(retrying);
        String other = enqueue(retrying);
        assertEquals(2, fetchIds("w1", 2, "default").size());
        Api.nack(id, Api.error("handler_error", "boom")).then().statusCode(200);
        Api.nack(other, Api.error("handler_error", "boom")).then().statusCode(200);

        Response r = cancel(id);

        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("retryable", path(r, "job.previous_state"));
        clock.advance(Duration.ofSeconds(2)); // past both retries' due time
        assertEquals(List.of(other), Api.fetchIdsSoon("w1", 10, "default"), "only the job that was not cancelled");
        assertEquals(List.of(), fetchIds("w1", 10, "default"));
        assertEquals("cancelled", state(id));
    }

    @Test
    void cancellingADiscardedJobIs409Conflict() {
        String id = enqueue(obj("type", "email.send", "args", arr(), "options", obj("retry", obj("max_attempts", 1))));
        fetchOne("w1", "default");
        Api.nack(id, Api.error("handler_error", "boom")).then().statusCode(200);

        Map<String, Object> e = assertError(cancel(id), 409, "conflict");

        assertEquals("discarded", ((Map<?, ?>) e.get("details")).get("current_state"));
    }

    @Test
    void cancellingAnUnknownJobIs404() {
        assertError(cancel(newUuidV7()), 404, "not_found");
        assertError(cancel("nope"), 404, "not_found");
    }

    @Test
    void aCancelledJobIsNeverFetched() {
        String cancelled = enqueue(job("email.send", "default"));
        String other = enqueue(job("email.send", "default"));
        cancel(cancelled).then().statusCode(200);

        assertEquals(List.of(other), fetchIds("w1", 10, "default"));
        assertEquals(List.of(), fetchIds("w1", 10, "default"));
        assertEquals("cancelled", state(cancelled));
    }
}
