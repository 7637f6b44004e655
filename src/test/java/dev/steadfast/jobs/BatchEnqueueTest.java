package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.newUuidV7;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** PUSH batch: all jobs or none. */
@QuarkusTest
class BatchEnqueueTest {

    private static final String BATCH = "/ojs/v1/jobs/batch";

    @Inject
    Pushes pushes;

    @Inject
    ObjectMapper json;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static List<Object> jobs(String queue, int n) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(obj("type", "batch.job", "args", arr(i), "options", obj("queue", queue)));
        }
        return out;
    }

    @Test
    void aBatchEnqueuesEveryJobInOrder() {
        // below and above the size from which the answer is rendered beside the insert
        for (int n : new int[] {25, 2 * PushService.ANSWER_BESIDE_INSERT}) {
            String queue = "batch-q" + n;
            List<String> answered = path(send(obj("jobs", jobs(queue, n))).post(BATCH).then().statusCode(201)
                    .body(at("count", equalTo(n))).body(at("jobs", hasSize(n)))
                    .body(at("jobs[0].state", equalTo("available")))
                    .body(at("jobs[" + (n - 1) + "].args[0]", equalTo(n - 1))).extract(), "jobs.id");
            List<String> fetched = fetchIds("w", 1000, queue);
            assertEquals(answered, fetched, "the answer names the jobs enqueued, in order");
        }
    }

    @Test
    void largeAnswersAreSentWholeWithTheirLength() {
        // a batch's answer and a FETCH of many jobs are far above the 8 kB at which a body written through a stream
        // goes out in chunks, each flushed on its own (Json.bytes)
        String pushed = send(obj("jobs", jobs("batch-whole", 100))).post(BATCH).then().statusCode(201)
                .header("Transfer-Encoding", nullValue()).extract().header("Content-Length");
        assertTrue(pushed != null && Long.parseLong(pushed) > 8192, "a batch answer of 100 jobs has its length");
        String fetched = send(obj("queues", arr("batch-whole"), "count", 100, "worker_id", "w"))
                .post("/ojs/v1/workers/fetch").then().statusCode(200).body(at("jobs", hasSize(100)))
                .header("Transfer-Encoding", nullValue()).extract().header("Content-Length");
        assertTrue(fetched != null && Long.parseLong(fetched) > 8192, "a FETCH of 100 jobs has its length");
    }

    @Test
    void oneInvalidJobRejectsTheWholeBatchNamingItsIndex() {
        List<Object> jobs = jobs("batch-bad", 3);
        ((Map<String, Object>) jobs.get(2)).remove("type");
        Map<String, Object> e = Api.assertError(send(obj("jobs", jobs)).post(BATCH), 400, "invalid_request");
        assertEquals(2, ((Map<String, Object>) e.get("details")).get("index"));
        assertEquals(0, fetchIds("w", 10, "batch-bad").size(), "nothing was enqueued");
    }

    @Test
    void aTakenIdRejectsTheWholeBatch() {
        String taken = enqueue(obj("id", newUuidV7(), "type", "batch.job", "args", arr(), "options",
                obj("queue", "batch-dup")));
        List<Object> jobs = jobs("batch-dup", 3);
        ((Map<String, Object>) jobs.get(1)).put("id", taken);
        Api.assertError(send(obj("jobs", jobs)).post(BATCH), 409, "duplicate");
        assertEquals(List.of(taken), fetchIds("w", 10, "batch-dup"), "only the earlier job exists");

        String id = newUuidV7();
        List<Object> twice = jobs("batch-dup2", 2);
        ((Map<String, Object>) twice.get(0)).put("id", id);
        ((Map<String, Object>) twice.get(1)).put("id", id);
        Api.assertError(send(obj("jobs", twice)).post(BATCH), 409, "duplicate");
        assertEquals(0, fetchIds("w", 10, "batch-dup2").size());

        // a batch large enough to render its answer beside the insert: that answer is dropped
        List<Object> big = jobs("batch-dup", 2 * PushService.ANSWER_BESIDE_INSERT);
        ((Map<String, Object>) big.get(big.size() - 1)).put("id", taken);
        Api.assertError(send(obj("jobs", big)).post(BATCH), 409, "duplicate");
        assertEquals(0, fetchIds("w", 10, "batch-dup").size(), "the earlier job was fetched above, nothing else exists");
    }

    @Test
    void aFailedAnswerLeavesTheInsertedBatchWhole() {
        // the answer is rendered beside the insert; when rendering fails, the insert's own steps still all run
        JsonNode list = json.valueToTree(jobs("batch-render", 2 * PushService.ANSWER_BESIDE_INSERT));
        assertThrows(IllegalStateException.class, () -> pushes.pushAll(list, null, null, all -> {
            throw new IllegalStateException("rendering failed");
        }).await().atMost(Duration.ofSeconds(10)));
        assertEquals(2 * PushService.ANSWER_BESIDE_INSERT, fetchIds("w", 1000, "batch-render").size());
        List<String> names = path(send(obj()).get(Api.QUEUES).then().statusCode(200).extract(), "queues.name");
        assertTrue(names.contains("batch-render"), "the batch's queue was registered: " + names);
    }

    @Test
    void malformedBatchesAre400() {
        Api.assertError(send(obj("jobs", arr())).post(BATCH), 400, "invalid_request");
        Api.assertError(send(obj("jobs", "x")).post(BATCH), 400, "invalid_request");
        Api.assertError(send(obj("jobs", arr("not an object"))).post(BATCH), 400, "invalid_request");
        Api.assertError(send(obj("jobs", jobs("batch-big", 1001))).post(BATCH), 400, "invalid_request");
        Map<String, Object> badPolicy = obj("type", "batch.job", "args", arr(),
                "options", obj("retry", obj("backoff_coefficient", 0.5)));
        Api.assertError(send(obj("jobs", arr(badPolicy))).post(BATCH), 422, "validation_error");
    }
}
