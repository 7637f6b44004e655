package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Retry policy scopes: job > type > queue > server default; the custom strategy's delay list set per queue, per
 * type and per job; and max_attempts clamped into [0, 100] (steadfast.retry.max-attempts-max, default rule clamp).
 */
@QuarkusTest
@TestProfile(Profiles.Switches.class)
class RetryScopesTest {

    @Test
    void theMostSpecificScopeWins() {
        Api.reset();
        push(obj("type", "other.job", "args", arr())).then().statusCode(201)
                .body(at("job.max_attempts", equalTo(5))).body(at("job.retry.initial_interval", equalTo("PT1S")));
        push(obj("type", "other.job", "args", arr(), "options", obj("queue", "billing"))).then()
                .body(at("job.max_attempts", equalTo(5))).body(at("job.retry.on_exhaustion", equalTo("dead_letter")))
                .body(at("job.retry.initial_interval", equalTo("PT10S")));
        push(obj("type", "invoice.send", "args", arr(), "options", obj("queue", "billing",
                "retry", obj("jitter", false)))).then()
                .body(at("job.max_attempts", equalTo(10))).body(at("job.retry.on_exhaustion", equalTo("dead_letter")))
                .body(at("job.retry.initial_interval", equalTo("PT10S"))).body(at("job.retry.jitter", equalTo(false)));
        push(obj("type", "invoice.send", "args", arr(), "options", obj("retry", obj("max_attempts", 2)))).then()
                .body(at("job.max_attempts", equalTo(2)));
        push(obj("type", "invoice.send", "args", arr(), "options", obj("retry", obj("max_attempts", 500)))).then()
                .body(at("job.max_attempts", equalTo(100)));
        request().get("/ojs/v1/retry-policies").then().statusCode(200)
                .body(at("default.max_attempts", equalTo(5))).body(at("max_attempts_range.max", equalTo(100)))
                .body(at("max_attempts_range.min", equalTo(0)))
                .body(at("max_attempts_range.out_of_range", equalTo("clamp")))
                .body(at("queues.billing.on_exhaustion", equalTo("dead_letter")))
                .body(at("types.'invoice.send'.max_attempts", equalTo(10)));
    }

    @Test
    void constantAndCustomStrategiesComeFromAnyScope() {
        Api.reset();
        // "constant" is accepted as the name of the none strategy and written back as "none".
        push(obj("type", "x.poll", "args", arr(), "options", obj("queue", "polling"))).then().statusCode(201)
                .body(at("job.retry.backoff_strategy", equalTo("none")));
        push(obj("type", "x.poll", "args", arr(), "options", obj("retry", obj("backoff_strategy", "constant"))))
                .then().statusCode(201).body(at("job.retry.backoff_strategy", equalTo("none")));
        // Per queue: Kathikon's schedule.
        push(obj("type", "x.any", "args", arr(), "options", obj("queue", "kathikon"))).then().statusCode(201)
                .body(at("job.max_attempts", equalTo(20))).body(at("job.retry.backoff_strategy", equalTo("custom")))
                .body(at("job.retry.intervals[2]", equalTo("PT45S")))
                .body(at("job.retry.intervals[18]", equalTo("PT30M5S")));
        // Per type, over a queue that sets something else; and per job, replacing the type's list.
        push(obj("type", "export.poll", "args", arr(), "options", obj("queue", "polling"))).then().statusCode(201)
                .body(at("job.retry.backoff_strategy", equalTo("custom"))).body(at("job.retry.intervals", equalTo(
                        java.util.List.of("PT1S", "PT2S"))));
        push(obj("type", "export.poll", "args", arr(), "options", obj("retry", obj("intervals", arr("PT3S")))))
                .then().statusCode(201).body(at("job.retry.intervals", equalTo(java.util.List.of("PT3S"))));
        // A job switching away from custom drops the inherited list; a list without custom is refused.
        push(obj("type", "export.poll", "args", arr(), "options", obj("retry", obj("backoff_strategy", "linear"))))
                .then().statusCode(201).body(at("job.retry.backoff_strategy", equalTo("linear")))
                .body(at("job.retry.intervals", equalTo(null)));
        Api.assertError(push(obj("type", "x.any", "args", arr(), "options", obj("retry", obj("intervals",
                arr("PT1S"))))), 422, "validation_error");
    }

    @Test
    void aCustomScheduleDrivesTheRetriesAndItsLastDelayRepeats() {
        Api.reset();
        String id = Api.enqueue(obj("type", "export.poll", "args", arr(), "options", obj("queue", "custom-q")));
        for (long expected : new long[] {1000, 2000, 2000}) {
            Api.fetchOne("w", "custom-q");
            // naming its worker: this profile requires it (RequireWorkerIdTest)
            Api.send(Api.obj("job_id", id, "worker_id", "w", "error", Api.error("E", "not ready"))).post(Api.NACK)
                    .then().statusCode(200);
            Map<String, Object> job = Api.jobView(id);
            org.junit.jupiter.api.Assertions.assertEquals("retryable", job.get("state"));
            org.junit.jupiter.api.Assertions.assertEquals(expected, ((Number) job.get("retry_delay_ms")).longValue());
            request().post("/ojs/v1/admin/jobs/" + id + "/retry").then().statusCode(200);
        }
    }
}
