package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ACTIVATE of pending jobs, and the dead-letter purge by query parameters. */
@QuarkusTest
class ActivateAndPurgeTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void aPendingJobWaitsForActivation() {
        String id = enqueue(obj("type", "staged.job", "args", arr(), "options", obj("queue", "staged", "pending", true)));
        assertEquals("pending", jobView(id).get("state"));
        assertEquals(List.of(), fetchIds("w", 1, "staged"), "a pending job is not fetchable");
        request().post("/ojs/v1/jobs/" + id + "/activate").then().statusCode(200)
                .body(at("job.state", equalTo("available"))).body(at("job.previous_state", equalTo("pending")));
        assertEquals(List.of(id), fetchIds("w", 1, "staged"));
        Api.assertError(request().post("/ojs/v1/jobs/" + id + "/activate"), 409, "conflict");
        Api.assertError(request().post("/ojs/v1/jobs/0195aaaa-aaaa-7aaa-8aaa-aaaaaaaaaaaa/activate"), 404, "not_found");
        Api.assertError(request().post("/ojs/v1/jobs/nope/activate"), 404, "not_found");
    }

    @Test
    void aPurgeByQueryParametersNeedsConfirmAndDeletesOnlyMatches() {
        for (String q : new String[] {"purge-a", "purge-a", "purge-b"}) {
            String id = enqueue(obj("type", "p.job", "args", arr(), "options",
                    obj("queue", q, "retry", obj("max_attempts", 1, "on_exhaustion", "dead_letter"))));
            fetchOne("w", q);
            nack(id, error("handler_error", "boom")).then().statusCode(200);
        }
        Api.assertError(request().delete("/ojs/v1/dead-letter?queue=purge-a"), 400, "invalid_request");
        request().delete("/ojs/v1/dead-letter?queue=purge-a&confirm=true").then().statusCode(200)
                .body(at("matched", equalTo(2))).body(at("succeeded", equalTo(2)));
        request().get("/ojs/v1/dead-letter").then().body(at("pagination.total", equalTo(1)))
                .body(at("jobs[0].queue", equalTo("purge-b")));
        Api.assertError(request().delete("/ojs/v1/dead-letter?since=yesterday&confirm=true"), 400, "invalid_request");
    }
}
