package dev.steadfast.packaged;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The OJS operations end to end against the packaged application: push, fetch, ack, fail, retry, dead letter. */
@QuarkusIntegrationTest
@TestProfile(PackagedApp.class)
class JobLifecycleIT {

    @BeforeAll
    static void authorize() {
        PackagedApp.authorize();
    }


    /** A queue no other test run uses: the prod profile has no reset hook. */
    static String freshQueue(String name) {
        return "it-" + name + "-" + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
    }

    @Test
    void pushFetchAck() {
        String queue = freshQueue("ack");
        String id = enqueue(obj("type", "it.ack", "args", arr(1, "two"), "options", obj("queue", queue)));
        assertEquals("available", jobView(id).get("state"));
        assertEquals(id, fetchOne("it-worker", queue));
        assertEquals("active", jobView(id).get("state"));
        ack(id, "it-worker", obj("ok", true)).then().statusCode(200);
        Map<String, Object> done = jobView(id);
        assertEquals("completed", done.get("state"));
        assertEquals(Map.of("ok", true), done.get("result"));
        assertEquals(List.of(), fetchIds("it-worker", 1, queue), "nothing left to fetch");
    }

    @Test
    void failRetryThenDeadLetter() {
        String queue = freshQueue("dlq");
        // Two attempts, a one-microsecond backoff (due by the next request) and dead letter on exhaustion.
        Map<String, Object> retry = obj("max_attempts", 2, "initial_interval", "PT0.000001S", "jitter", false,
                "on_exhaustion", "dead_letter");
        String id = enqueue(obj("type", "it.fail", "args", arr(), "options", obj("queue", queue, "retry", retry)));

        assertEquals(id, fetchOne("it-worker", queue));
        nack(id, error("E_FIRST", "first attempt failed")).then().statusCode(200);
        // The retry is due at once: the promoter may already have made it available by the time INFO reads it.
        Map<String, Object> failed = jobView(id);
        assertTrue(List.of("retryable", "available").contains(failed.get("state")), "state " + failed.get("state"));
        assertEquals(1, ((List<?>) failed.get("errors")).size(), "the failure is in the history");

        assertEquals(id, fetchOne("it-worker", queue), "the due retry is fetched again");
        nack(id, error("E_SECOND", "second attempt failed")).then().statusCode(200);
        Map<String, Object> dead = jobView(id);
        assertEquals("discarded", dead.get("state"));
        assertEquals(2, ((List<?>) dead.get("errors")).size(), "both failures are in the history");

        request().get("/ojs/v1/dead-letter/" + id).then().statusCode(200);
        request().post("/ojs/v1/dead-letter/" + id + "/retry").then().statusCode(200);
        assertEquals(id, fetchOne("it-worker", queue), "a dead letter retried is a new run");
        ack(id).then().statusCode(200);
        assertEquals("completed", jobView(id).get("state"));
    }
}
