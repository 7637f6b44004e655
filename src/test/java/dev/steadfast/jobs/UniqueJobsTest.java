package dev.steadfast.jobs;


import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JsonPaths;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.json;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.JsonPaths.at;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Unique jobs (ojs-unique-jobs.md) against PostgreSQL: each conflict strategy, states, batches, parallel producers. */
@QuarkusTest
class UniqueJobsTest {

    @Inject
    TestClock clock;

    @TestHTTPResource("/ojs/v1/jobs")
    URI jobsUri;

    @TestHTTPResource("/ojs/v1/jobs/batch")
    URI batchUri;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static Map<String, Object> uniqueJob(String queue, Object arg, Map<String, Object> unique) {
        return obj("type", "u.job", "args", arr(arg), "options", obj("queue", queue, "unique", unique));
    }

    @Test
    void rejectAnswers409NamingTheHolderAndLeavesItAlone() {
        Map<String, Object> u = obj("keys", arr("type", "args"), "on_conflict", "reject");
        String first = enqueue(uniqueJob("uq-r", 1, u));
        Map<String, Object> e = assertError(push(uniqueJob("uq-r", 1, u)), 409, "duplicate");
        Map<?, ?> d = (Map<?, ?>) e.get("details");
        assertEquals(first, d.get("existing_job_id"));
        assertEquals("available", d.get("existing_job_state"));
        assertEquals(64, ((String) d.get("unique_key")).length());
        enqueue(uniqueJob("uq-r", 2, u)); // other args: another key
        assertEquals("available", state(first));
    }

    @Test
    void ignoreAnswers200WithTheHolder() {
        Map<String, Object> u = obj("keys", arr("type"), "on_conflict", "ignore");
        String first = enqueue(uniqueJob("uq-i", 1, u));
        push(uniqueJob("uq-i", 2, u)).then().statusCode(200).body(at("job.id", equalTo(first)))
                .body(at("deduplicated", equalTo(true))).body(at("job.state", equalTo("available")));
        assertEquals(List.of(first), Api.fetchIds("w", 10, "uq-i"));
    }

    @Test
    void useExistingIsIgnoreUnderTheOpenApiName() {
        Map<String, Object> u = obj("on_conflict", "use_existing");
        String first = enqueue(uniqueJob("uq-ue", 1, u));
        push(uniqueJob("uq-ue", 1, u)).then().statusCode(200).body(at("job.id", equalTo(first)));
    }

    @Test
    void replaceCancelsTheHolderEvenWhenActive() {
        Map<String, Object> u = obj("keys", arr("type"), "on_conflict", "replace");
        String first = enqueue(uniqueJob("uq-rp", 1, u));
        assertEquals(first, fetchOne("w", "uq-rp"));
        String second = enqueue(uniqueJob("uq-rp", 2, u));
        assertNotEquals(first, second);
        assertEquals("cancelled", state(first));
        assertEquals("available", state(second));
        assertError(Api.ack(first), 409, "conflict");
    }

    @Test
    void replaceExceptScheduleKeepsTheScheduledTime() {
        Map<String, Object> u = obj("keys", arr("type"), "on_conflict", "replace_except_schedule");
        String at = clock.instant().plusSeconds(3600).truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .toString();
        Map<String, Object> scheduled = uniqueJob("uq-res", 1, u);
        ((Map<String, Object>) scheduled.get("options")).put("scheduled_at", at);
        String first = enqueue(scheduled);
        Response r = push(uniqueJob("uq-res", 2, u));
        r.then().statusCode(201).body(at("job.state", equalTo("scheduled"))).body(at("job.args[0]", equalTo(2)));
        assertEquals("cancelled", state(first));
        assertEquals(at.replace("Z", ".000Z"), Api.jobView(path(r, "job.id")).get("scheduled_at"));
    }

    @Test
    void onlyTheListedStatesHoldTheKey() {
        Map<String, Object> u = obj("states", arr("available"));
        String first = enqueue(uniqueJob("uq-s", 1, u));
        assertEquals(first, fetchOne("w", "uq-s"));
        enqueue(uniqueJob("uq-s", 1, u)); // the holder is active, which the policy does not list
        Map<String, Object> withCompleted = obj("states", arr("completed"));
        String done = enqueue(uniqueJob("uq-c", 1, withCompleted));
        assertEquals(done, fetchOne("w", "uq-c"));
        Api.ack(done).then().statusCode(200);
        assertError(push(uniqueJob("uq-c", 1, withCompleted)), 409, "duplicate");
    }

    @Test
    void aJobWaitingForItsRetryHoldsTheKey() {
        Map<String, Object> u = obj("keys", arr("type", "args"));
        Map<String, Object> body = uniqueJob("uq-retry", 1, u);
        Map<String, Object> retry = Api.fixedRetry(3, "PT1H");
        retry.put("max_interval", "PT2H");
        ((Map<String, Object>) body.get("options")).put("retry", retry);
        String id = enqueue(body);
        assertEquals(id, fetchOne("w", "uq-retry"));
        Api.nack(id, Api.error("boom", "failed")).then().statusCode(200);
        assertEquals("retryable", state(id));
        assertError(push(uniqueJob("uq-retry", 1, u)), 409, "duplicate");
    }

    @Test
    void queueAndMetaDimensionsAndTheSdkKeyShape() {
        Map<String, Object> byQueue = obj("keys", arr("type", "queue"));
        enqueue(uniqueJob("uq-qa", 1, byQueue));
        enqueue(uniqueJob("uq-qb", 1, byQueue));
        assertError(push(uniqueJob("uq-qa", 2, byQueue)), 409, "duplicate");
        Map<String, Object> byKey = obj("key", "order-7", "period_ms", 3_600_000);
        enqueue(uniqueJob("uq-k1", 1, byKey));
        assertError(push(uniqueJob("uq-k2", 2, byKey)), 409, "duplicate");
        Map<String, Object> byMeta = obj("keys", arr("meta"), "meta_keys", arr("tenant"));
        enqueue(obj("type", "u.m", "args", arr(), "meta", obj("tenant", "a", "trace", "1"),
                "options", obj("queue", "uq-m", "unique", byMeta)));
        assertError(push(obj("type", "u.m", "args", arr(), "meta", obj("tenant", "a", "trace", "2"),
                "options", obj("queue", "uq-m", "unique", byMeta))), 409, "duplicate");
    }

    @Test
    void badPoliciesAreRefusedNamingTheField() {
        Object[][] cases = {
            {obj("keys", arr("argz")), "options.unique.keys"},
            {obj("keys", arr("meta")), "options.unique.meta_keys"},
            {obj("states", arr("done")), "options.unique.states"},
            {obj("on_conflict", "merge"), "options.unique.on_conflict"},
            {obj("period", "one hour"), "options.unique.period"},
            {obj("period_ms", 0), "options.unique.period_ms"},
            {obj("keys", arr("args"), "args_keys", arr("missing")), "options.unique.args_keys"},
            {obj("ttl", 5), "options.unique.ttl"},
            {"yes", "options.unique"},
            {obj("key", 5), "options.unique.key"},
            {obj("key", obj("f", 1)), "options.unique.key"},
            {obj("key", arr()), "options.unique.key"},
            {obj("key", arr(1)), "options.unique.key"},
            {obj("key", arr("missing")), "options.unique.key"},
            {obj("key", arr("id"), "args_keys", arr("id")), "options.unique.args_keys"},
            {obj("key", "k", "keys", arr("args")), "options.unique.key"},
            {obj("key", "k", "meta_keys", arr("t")), "options.unique.key"},
            {obj("key", "", "period", "PT1M"), "options.unique.key"},
            {obj("period", "PT1M", "period_ms", 60_000), "options.unique.period_ms"},
            {obj("period_ms", "60000"), "options.unique.period_ms"},
            {obj("period_ms", -1), "options.unique.period_ms"},
        };
        for (Object[] c : cases) {
            Map<String, Object> e = assertError(push(obj("type", "u.bad", "args", arr(obj("id", 1)),
                    "options", obj("queue", "uq-bad", "unique", c[0]))), 400, "invalid_request");
            assertEquals(c[1], detailField(e), () -> "policy " + c[0]);
        }
        assertEquals(0, Api.fetchIds("w", 10, "uq-bad").size());
    }

    @Test
    void anArrayKeyOnAnArgumentThatIsNotAnObjectIsRefusedNamingTheKey() {
        Map<String, Object> e = assertError(push(uniqueJob("uq-bad2", "scalar", obj("key", arr("order")))), 400,
                "invalid_request");
        assertEquals("options.unique.key", detailField(e));
        Map<String, Object> top = obj("type", "u.bad", "args", arr(obj("x", 1)), "unique", obj("key", arr("order")));
        assertEquals("unique.key", detailField(assertError(push(top), 400, "invalid_request")));
        assertEquals(0, Api.fetchIds("w", 10, "uq-bad2").size());
    }

    /** What @openjobspec/sdk 0.4.0 sends for {@code unique: {key: ['order'], period: 'PT1M', onConflict: 'reject'}}. */
    @Test
    void theJavaScriptSdkShapeIsCreatedThenItsDuplicateRefused() {
        Map<String, Object> u = obj("key", arr("order"), "period", "PT1M", "on_conflict", "reject");
        String first = enqueue(uniqueJob("uq-js", obj("order", 1, "note", "a"), u));
        Map<String, Object> e = assertError(push(uniqueJob("uq-js", obj("order", 1, "note", "b"), u)), 409, "duplicate");
        assertEquals(first, ((Map<?, ?>) e.get("details")).get("existing_job_id"));
        assertNotEquals(first, enqueue(uniqueJob("uq-js", obj("order", 2, "note", "a"), u)), "another order");
    }

    /** What org.openjobspec:ojs-sdk 0.4.0 sends: {@code key}, {@code period_ms} and always {@code on_conflict}. */
    @Test
    void theJavaSdkShapeIsCreatedThenItsDuplicateRefused() {
        Map<String, Object> u = obj("key", arr("order"), "period_ms", 60_000, "on_conflict", "reject");
        String first = enqueue(uniqueJob("uq-java", obj("order", 7), u));
        assertError(push(uniqueJob("uq-java", obj("order", 7), u)), 409, "duplicate");
        enqueue(uniqueJob("uq-java", obj("order", 8), u));
        Map<String, Object> typeOnly = obj("on_conflict", "reject"); // the Java SDK without key(...)
        enqueue(obj("type", "u.java.any", "args", arr(obj("order", 1)), "options", obj("queue", "uq-java", "unique",
                typeOnly)));
        assertError(push(obj("type", "u.java.any", "args", arr(obj("order", 2)), "options", obj("queue", "uq-java",
                "unique", typeOnly))), 409, "duplicate");
        assertEquals("available", state(first));
    }

    @Test
    void anArrayKeyFollowsEveryOnConflict() {
        // one type and no queue dimension: each strategy below uses its own order, so its own key
        Map<String, Object> ignore = obj("key", arr("order"), "on_conflict", "ignore");
        String kept = enqueue(uniqueJob("uq-ak-i", obj("order", 1), ignore));
        push(uniqueJob("uq-ak-i", obj("order", 1, "v", 2), ignore)).then().statusCode(200)
                .body(at("job.id", equalTo(kept))).body(at("deduplicated", equalTo(true)));
        Map<String, Object> replace = obj("key", arr("order"), "on_conflict", "replace");
        String old = enqueue(uniqueJob("uq-ak-r", obj("order", 2), replace));
        String replacing = enqueue(uniqueJob("uq-ak-r", obj("order", 2, "v", 2), replace));
        assertEquals("cancelled", state(old));
        assertEquals("available", state(replacing));
        Map<String, Object> res = obj("key", arr("order"), "on_conflict", "replace_except_schedule");
        String at = clock.instant().plusSeconds(3600).truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .toString();
        Map<String, Object> scheduled = uniqueJob("uq-ak-s", obj("order", 3), res);
        ((Map<String, Object>) scheduled.get("options")).put("scheduled_at", at);
        String first = enqueue(scheduled);
        Response r = push(uniqueJob("uq-ak-s", obj("order", 3, "v", 2), res));
        r.then().statusCode(201).body(at("job.state", equalTo("scheduled")));
        assertEquals("cancelled", state(first));
        assertEquals(at.replace("Z", ".000Z"), Api.jobView(path(r, "job.id")).get("scheduled_at"));
        Map<String, Object> reject = obj("key", arr("order"));
        enqueue(uniqueJob("uq-ak-x", obj("order", 4), reject));
        assertError(push(uniqueJob("uq-ak-x", obj("order", 4), reject)), 409, "duplicate");
    }

    /** ojs-json-format.md 11.4: the policy at the envelope's top level, key as args fields, ignore. */
    @Test
    void theJsonFormatExampleAndTheUniqueJobsShapeShareOneKey() {
        Map<String, Object> example = obj("type", "report.generate", "queue", "uq-rep",
                "args", arr(obj("report_id", 42, "format", "pdf")), "unique", obj("key", arr("report_id"),
                        "period", "PT1H", "on_conflict", "ignore", "states", arr("available", "active", "scheduled")));
        Response created = push(example);
        created.then().statusCode(201);
        String id = path(created, "job.id");
        Map<String, Object> sameByArgsKeys = obj("type", "report.generate", "args", arr(obj("report_id", 42,
                "format", "csv")), "options", obj("queue", "uq-rep", "unique", obj("keys", arr("type", "args"),
                "args_keys", arr("report_id"), "on_conflict", "ignore")));
        push(sameByArgsKeys).then().statusCode(200).body(at("job.id", equalTo(id)));
        push(example).then().statusCode(200).body(at("job.id", equalTo(id))).body(at("deduplicated", equalTo(true)));
    }

    @Test
    void theManifestNamesTheShapesItReads() {
        Response m = request().get("/ojs/manifest");
        assertEquals(List.of("keys", "args_keys", "meta_keys", "key", "period", "period_ms", "states", "on_conflict"),
                path(m, "capabilities.unique_jobs.fields"));
        assertEquals(List.of("reject", "replace", "replace_except_schedule", "ignore", "use_existing"),
                path(m, "capabilities.unique_jobs.on_conflict"));
        assertEquals("strong", path(m, "unique_job_strength"));
    }

    @Test
    void aBatchIsDecidedInOrderAndIsAllOrNothing() {
        Map<String, Object> u = obj("keys", arr("type", "args"));
        enqueue(uniqueJob("uq-b", 1, u));
        Map<String, Object> batch = obj("jobs", arr(uniqueJob("uq-b", 2, u), uniqueJob("uq-b", 1, u)));
        Map<String, Object> e = assertError(send(batch).post("/ojs/v1/jobs/batch"), 409, "duplicate");
        assertEquals(1, ((Map<?, ?>) e.get("details")).get("index"));
        assertEquals(1, Api.fetchIds("w", 10, "uq-b").size(), "the batch's first job was rolled back");
        Map<String, Object> twice = obj("jobs", arr(uniqueJob("uq-b2", 1, u), uniqueJob("uq-b2", 1, u)));
        assertError(send(twice).post("/ojs/v1/jobs/batch"), 409, "duplicate");
        Map<String, Object> ignore = obj("keys", arr("type"), "on_conflict", "ignore");
        Response r = send(obj("jobs", arr(uniqueJob("uq-b3", 1, ignore), uniqueJob("uq-b3", 2, ignore))))
                .post("/ojs/v1/jobs/batch");
        r.then().statusCode(201);
        assertEquals(JsonPaths.<String>path(r, "jobs[0].id"), path(r, "jobs[1].id"), "the second job is deduplicated onto the first");
    }

    /**
     * Strong uniqueness (ojs-unique-jobs 8.1, test 11): 24 producers push the same key at once, as single PUSHes and
     * as batches; exactly one job is created and every other producer gets 409.
     */
    @Test
    void parallelProducersOfOneKeyCreateExactlyOneJob() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ExecutorService pool = Executors.newFixedThreadPool(24);
        try {
            Map<String, Object> u = obj("keys", arr("type", "args"), "on_conflict", "reject");
            String single = json(uniqueJob("uq-par", "same", u));
            String batch = json(obj("jobs", arr(uniqueJob("uq-par", "other-" + 0, u), uniqueJob("uq-par", "same", u))));
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                boolean asBatch = i % 3 == 0;
                answers.add(pool.submit(() -> {
                    start.await();
                    HttpRequest req = HttpRequest.newBuilder(asBatch ? batchUri : jobsUri)
                            .header("Content-Type", Api.OJS_JSON)
                            .POST(HttpRequest.BodyPublishers.ofString(asBatch ? batch : single)).build();
                    return http.send(req, HttpResponse.BodyHandlers.ofString()).statusCode();
                }));
            }
            start.countDown();
            int created = 0;
            int refused = 0;
            for (Future<Integer> f : answers) {
                int s = f.get(60, TimeUnit.SECONDS);
                if (s == 201) {
                    created++;
                } else if (s == 409) {
                    refused++;
                }
            }
            assertEquals(1, created, "exactly one producer wins");
            assertEquals(23, refused);
            List<String> ids = Api.fetchIds("w", 100, "uq-par");
            assertEquals(ids.size(), JsonPaths.<Integer>path(request().get("/ojs/v1/queues/uq-par/stats"),
                    "queue.active"));
            assertEquals(1, ids.stream().filter(id -> "same".equals(Api.jobView(id).get("args") instanceof List<?> l
                    ? l.get(0) : null)).count(), "one job holds the key");
        } finally {
            pool.shutdownNow();
        }
    }
}
