package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.JsonPaths.at;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JobsInState;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The admin API's job actions (ojs-admin-api.md 7.3, 7.4) and delete: the console's buttons, over HTTP. */
@QuarkusTest
class AdminJobsApiTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static String retry(String id) {
        return path(request().post("/ojs/v1/admin/jobs/" + id + "/retry").then().statusCode(200).extract(), "job.state");
    }

    @Test
    void retryRunsAWaitingJobNow() {
        String r = JobsInState.retryable("aj-r", "t.r", "E", "flaky");
        String s = JobsInState.scheduled("aj-r", "t.s");
        assertEquals(List.of(), fetchIds("w", 5, "aj-r"));
        assertEquals("available", retry(r));
        assertEquals("available", retry(s));
        assertEquals(2, fetchIds("w", 5, "aj-r").size());
        assertEquals(1, ((List<?>) jobView(r).get("errors")).size(), "the history stays");
    }

    @Test
    void retryStartsANewRunForCancelledDiscardedAndDeadLetteredJobs() {
        String c = JobsInState.cancelled("aj-c", "t.c");
        String d = JobsInState.discarded("aj-d", "t.d", "E", "gone");
        String dl = JobsInState.deadLetter("aj-dl", "t.dl", "E", "dead");
        for (String id : List.of(c, d, dl)) {
            assertEquals("available", retry(id));
            Map<String, Object> job = jobView(id);
            assertEquals(2, job.get("run"), id);
            assertEquals(0, job.get("attempt"), id);
            assertEquals(null, job.get("error"), id);
        }
        assertEquals(d, fetchOne("w", "aj-d"));
        request().get(Api.EVENTS + "?types=dead_letter.retried").then()
                .body(at("events.subject", equalTo(List.of(dl))));
    }

    @Test
    void retryRefusesJobsThatAreNotWaitingOrFinishedUnsuccessfully() {
        String available = enqueue("t.a", "aj-x");
        assertError(request().post("/ojs/v1/admin/jobs/" + available + "/retry"), 409, "conflict");
        String done = JobsInState.completed("aj-done", "t.a");
        assertError(request().post("/ojs/v1/admin/jobs/" + done + "/retry"), 409, "conflict");
        assertError(request().post("/ojs/v1/admin/jobs/0195aaaa-aaaa-7aaa-8aaa-aaaaaaaaaaaa/retry"), 404, "not_found");
        assertError(request().post("/ojs/v1/admin/jobs/not-a-uuid/retry"), 404, "not_found");
    }

    @Test
    void cancelNamesTheAdminApiAndDeleteRefusesActiveJobs() {
        String id = enqueue("t.c", "aj-cancel");
        request().post("/ojs/v1/admin/jobs/" + id + "/cancel").then().statusCode(200)
                .body(at("job.state", equalTo("cancelled"))).body(at("job.previous_state", equalTo("available")));
        request().get(Api.EVENTS + "?types=job.cancelled").then()
                .body(at("events[0].data.cancelled_by", equalTo("admin-api")));
        assertError(request().post("/ojs/v1/admin/jobs/" + id + "/cancel"), 409, "conflict");

        request().delete("/ojs/v1/admin/jobs/" + id).then().statusCode(200).body(at("deleted", equalTo(true)))
                .body(at("previous_state", equalTo("cancelled")));
        Api.info(id).then().statusCode(404);
        assertError(request().delete("/ojs/v1/admin/jobs/" + id), 404, "not_found");

        String active = enqueue("t.c", "aj-active");
        fetchOne("w", "aj-active");
        assertError(request().delete("/ojs/v1/admin/jobs/" + active), 409, "conflict");
        assertEquals("active", state(active));
    }

    @Test
    void detailIsTheWholeEnvelopeUnwrapped() {
        String id = enqueue("t.detail", "adm-detail");
        request().get("/ojs/v1/admin/jobs/" + id).then().statusCode(200).body(at("id", equalTo(id)))
                .body(at("type", equalTo("t.detail"))).body(at("queue", equalTo("adm-detail")))
                .body(at("state", equalTo("available")));
        assertError(request().get("/ojs/v1/admin/jobs/0195aaaa-aaaa-7aaa-8aaa-aaaaaaaaaaaa"), 404, "not_found");
    }

    @Test
    void bulkRetryNeedsConfirmationAndRetriesEveryMatch() {
        String a = JobsInState.discarded("adm-bulk", "t.bulk", "E", "boom");
        String b = JobsInState.discarded("adm-bulk", "t.bulk", "E", "boom");
        String other = JobsInState.discarded("adm-bulk-other", "t.bulk", "E", "boom");
        assertError(Api.send(Api.obj("filter", Api.obj("state", "discarded"), "confirm", false))
                .post("/ojs/v1/admin/jobs/bulk/retry"), 400, "invalid_request");
        assertEquals("discarded", state(a));
        assertError(Api.send(Api.obj("filter", Api.obj("state", "finished"), "confirm", true))
                .post("/ojs/v1/admin/jobs/bulk/retry"), 400, "invalid_request");
        Api.send(Api.obj("filter", Api.obj("state", "discarded", "queue", "adm-bulk"), "confirm", true))
                .post("/ojs/v1/admin/jobs/bulk/retry").then().statusCode(200).body(at("matched", equalTo(2)))
                .body(at("succeeded", equalTo(2))).body(at("failed", equalTo(0)));
        assertEquals("available", state(a));
        assertEquals("available", state(b));
        assertEquals("discarded", state(other));
    }

    @Test
    void statsCountQueuesWorkersJobsAndThroughput() {
        enqueue("t.stats", "adm-stats");
        fetchOne("w-stats", "adm-stats");
        Api.send(Api.obj("worker_id", "w-stats", "active_jobs", List.of())).post("/ojs/v1/workers/heartbeat").then()
                .statusCode(200);
        Map<String, Object> s = request().get("/ojs/v1/admin/stats").then().statusCode(200).extract().as(Map.class);
        assertEquals(true, ((Number) s.get("queues")).intValue() >= 1, "queues " + s);
        assertEquals(true, ((Number) s.get("workers")).intValue() >= 1, "workers " + s);
        Map<String, Object> jobs = (Map<String, Object>) s.get("jobs");
        for (String k : List.of("available", "active", "completed", "discarded", "dead_letter")) {
            assertEquals(true, jobs.get(k) instanceof Number, k + " in " + jobs);
        }
        Map<String, Object> t = (Map<String, Object>) s.get("throughput");
        assertEquals(true, t.get("processed_per_minute") instanceof Number && t.get("failed_per_minute") instanceof Number);
    }
}
