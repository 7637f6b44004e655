package dev.steadfast.console;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.obj;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JobsInState;
import java.util.Map;

/**
 * A small, realistic mix of jobs so the browser test's screenshots show what an operator would see. The builders
 * that fetch (completed, retryable, ...) run before plain enqueues into the same queue, since each fetches the
 * queue's next job.
 */
final class ConsoleDemoData {

    private ConsoleDemoData() {
    }

    static void seed() {
        for (int i = 0; i < 6; i++) {
            JobsInState.completed("email", "email.send");
        }
        JobsInState.retryable("email", "email.send", "SmtpTimeout", "connection timed out after 30s");
        for (int i = 0; i < 4; i++) {
            enqueue(obj("type", "email.send", "args", arr("user" + i + "@example.com", "welcome"),
                    "options", obj("queue", "email", "tags", arr("onboarding"))));
        }
        JobsInState.retryable("reports", "report.generate", "QueryTimeout", "statement timed out after 60s");
        JobsInState.discarded("reports", "report.generate", "ValidationError", "unknown report 'q5'");
        JobsInState.deadLetter("billing", "invoice.charge", "GatewayError", "payment gateway answered 502");
        JobsInState.scheduled("reports", "report.generate");
        JobsInState.cancelled("billing", "invoice.refund");
        JobsInState.available("media", "image.resize", arr(Map.of("key", "uploads/cat.png", "width", 640)),
                Map.of("tenant", "acme"));
        Api.request().post("/ojs/v1/queues/media/pause").then().statusCode(200);
        Api.send(obj("worker_id", "worker-eu-1", "hostname", "ip-10-0-3-17", "active_jobs", arr()))
                .post("/ojs/v1/workers/heartbeat").then().statusCode(200);
    }
}
