package dev.steadfast.testsupport;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

/**
 * Builders for jobs in any state, made through the OJS API itself (push, fetch, nack, ack, cancel), so every
 * job a test sees got there by a real transition. Each takes its own queue so fetches never pick up another
 * test's job.
 */
public final class JobsInState {

    private JobsInState() {
    }

    /** A pushed job with these args and meta, still available. */
    public static String available(String queue, String type, Object args, Map<String, Object> meta) {
        return enqueue(obj("type", type, "args", args, "meta", meta, "options", obj("queue", queue)));
    }

    /** A job whose only attempt failed with {@code errorType} and that went to the dead letter queue. */
    public static String deadLetter(String queue, String type, String errorType, String message) {
        String id = enqueue(obj("type", type, "args", arr(queue), "options",
                obj("queue", queue, "retry", obj("max_attempts", 1, "on_exhaustion", "dead_letter"))));
        fail(id, queue, errorType, message).then().statusCode(200);
        return id;
    }

    /** A job that failed once and waits an hour for its retry. */
    public static String retryable(String queue, String type, String errorType, String message) {
        String id = enqueue(obj("type", type, "args", arr(), "options", obj("queue", queue,
                "retry", obj("max_attempts", 5, "initial_interval", "PT1H", "max_interval", "PT2H", "jitter", false))));
        fail(id, queue, errorType, message).then().statusCode(200);
        return id;
    }

    /** A job whose only attempt failed and that was discarded (not dead-lettered). */
    public static String discarded(String queue, String type, String errorType, String message) {
        String id = enqueue(obj("type", type, "args", arr(), "options", obj("queue", queue,
                "retry", obj("max_attempts", 1))));
        fail(id, queue, errorType, message).then().statusCode(200);
        return id;
    }

    /** A job scheduled an hour ahead. */
    public static String scheduled(String queue, String type) {
        return enqueue(obj("type", type, "args", arr(), "options", obj("queue", queue, "scheduled_at", "+PT1H")));
    }

    public static String cancelled(String queue, String type) {
        String id = enqueue(type, queue);
        Api.cancel(id).then().statusCode(200);
        return id;
    }

    public static String completed(String queue, String type) {
        String id = enqueue(type, queue);
        assertEquals(id, fetchOne("builder", queue));
        Api.ack(id).then().statusCode(200);
        return id;
    }

    /** Fetches the job (it must be the next one of its queue) and fails it. */
    private static io.restassured.response.Response fail(String id, String queue, String errorType, String message) {
        assertEquals(id, fetchOne("builder", queue));
        return nack(id, obj("code", "handler_error", "type", errorType, "message", message,
                "backtrace", arr("at app.Handler.run(Handler.java:42)", "at app.Worker.loop(Worker.java:7)")));
    }
}
