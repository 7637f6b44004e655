package dev.steadfast.deadletters;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The dead letter queue over HTTP: browse, filter, page, retry as a new run, delete, bulk with confirm. */
@QuarkusTest
class DeadLetterApiTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    /** Pushes a job that dead-letters on its first failure, fails it with {@code type}, returns its id. */
    static String deadLetter(String queue, String jobType, String errorType) {
        String id = enqueue(obj("type", jobType, "args", arr(queue), "options",
                obj("queue", queue, "retry", obj("max_attempts", 1, "on_exhaustion", "dead_letter"))));
        assertEquals(id, fetchOne("w", queue));
        nack(id, obj("code", "handler_error", "type", errorType, "message", "failed: " + errorType,
                "backtrace", arr("at a.b(C.java:1)", "at d.e(F.java:2)"))).then().statusCode(200)
                .body(at("state", equalTo("discarded"))).body(at("dead_letter", equalTo(true)));
        return id;
    }

    @Test
    void listsFiltersAndShowsTheErrorHistory() {
        String a = deadLetter("dl-a", "t.one", "DbError");
        deadLetter("dl-b", "t.two", "HttpError");
        String plain = enqueue(obj("type", "t.one", "args", arr(), "options",
                obj("queue", "dl-a", "retry", obj("max_attempts", 1))));
        fetchOne("w", "dl-a");
        nack(plain, error("handler_error", "gone")).then().body(at("dead_letter", equalTo(false)));

        request().get("/ojs/v1/dead-letter").then().statusCode(200).body(at("jobs", hasSize(2)))
                .body(at("pagination.total", equalTo(2)));
        request().get("/ojs/v1/dead-letter?queue=dl-a").then().body(at("jobs", hasSize(1)))
                .body(at("jobs[0].id", equalTo(a)))
                .body(at("jobs[0].errors[0].backtrace[1]", equalTo("at d.e(F.java:2)")));
        request().get("/ojs/v1/dead-letter?error_type=HttpError").then().body(at("jobs", hasSize(1)))
                .body(at("jobs[0].type", equalTo("t.two")));
        request().get("/ojs/v1/dead-letter?type=t.one&error_type=HttpError").then().body(at("jobs", hasSize(0)));
        request().get("/ojs/v1/dead-letter/" + a).then().statusCode(200)
                .body(at("job.errors[0].type", equalTo("DbError")));
        request().get("/ojs/v1/dead-letter/" + plain).then().statusCode(404)
                .body(at("error.code", equalTo("not_found")));
        request().get("/ojs/v1/dead-letter/stats").then().statusCode(200).body(at("total", equalTo(2)))
                .body(at("by_queue.dl-a", equalTo(1))).body(at("by_error_type.HttpError", equalTo(1)));
    }

    @Test
    void cursorPagesVisitEveryDeadLetterOnce() {
        Set<String> all = new HashSet<>();
        for (int i = 0; i < 7; i++) {
            all.add(deadLetter("dl-page", "t.page", "E"));
        }
        Set<String> seen = new HashSet<>();
        String cursor = null;
        int pages = 0;
        do {
            Response r = request().get("/ojs/v1/dead-letter?limit=3" + (cursor == null ? "" : "&cursor=" + cursor));
            r.then().statusCode(200).body(at("pagination.total", equalTo(7)));
            List<String> ids = path(r, "jobs.id");
            ids.forEach(id -> assertEquals(true, seen.add(id), "seen twice: " + id));
            cursor = path(r, "pagination.next_cursor");
            pages++;
        } while (cursor != null);
        assertEquals(3, pages);
        assertEquals(all, seen);
        Api.assertError(request().get("/ojs/v1/dead-letter?cursor=bogus"), 400, "invalid_request");
        Api.assertError(request().get("/ojs/v1/dead-letter?limit=0"), 400, "invalid_request");
    }

    @Test
    void aRetryStartsANewRunAndKeepsTheEarlierErrors() {
        String id = deadLetter("dl-retry", "t.r", "DbError");
        send(obj()).post("/ojs/v1/dead-letter/" + id + "/retry").then().statusCode(200)
                .body(at("job.state", equalTo("available"))).body(at("job.attempt", equalTo(0)))
                .body(at("job.run", equalTo(2)));
        Map<String, Object> job = jobView(id);
        assertNull(job.get("error"), "the current error is cleared");
        List<Map<String, Object>> errors = (List<Map<String, Object>>) job.get("errors");
        assertEquals(1, errors.size());
        assertEquals(1, errors.get(0).get("run"));

        assertEquals(id, fetchOne("w2", "dl-retry"));
        nack(id, obj("code", "handler_error", "type", "DbError", "message", "again")).then()
                .body(at("state", equalTo("discarded")));
        errors = (List<Map<String, Object>>) jobView(id).get("errors");
        assertEquals(2, errors.size());
        assertEquals(2, errors.get(1).get("run"));
        assertEquals(1, errors.get(1).get("attempt"));

        String active = enqueue(obj("type", "t.r", "args", arr(), "options", obj("queue", "dl-other")));
        Api.assertError(send(obj()).post("/ojs/v1/dead-letter/" + active + "/retry"), 409, "conflict");
        Api.assertError(send(obj()).post("/ojs/v1/dead-letter/0195aaaa-aaaa-7aaa-8aaa-aaaaaaaaaaaa/retry"), 404,
                "not_found");
    }

    /**
     * A bulk retry moves a whole batch back to the live table in one statement, a single retry one job, both through
     * HistorySql.START_NEW_RUNS. Both leave a job the same way.
     */
    @Test
    void bulkAndSingleRetriesStartTheSameNewRun() {
        String single = deadLetter("dl-same-1", "t.same", "DbError");
        String bulk = deadLetter("dl-same-2", "t.same", "DbError");
        send(obj()).post("/ojs/v1/dead-letter/" + single + "/retry").then().statusCode(200);
        send(obj("filter", obj("queue", "dl-same-2"), "confirm", true)).post("/ojs/v1/dead-letter/retry")
                .then().statusCode(200).body(at("succeeded", equalTo(1)));
        Map<String, Object> a = comparable(jobView(single));
        Map<String, Object> b = comparable(jobView(bulk));
        assertEquals(a, b);
        assertEquals("available", a.get("state"));
        assertEquals(2, a.get("run"));
    }

    /** A job's view without what differs between two jobs by construction: ids, queue, args and instants. */
    private static Map<String, Object> comparable(Map<String, Object> job) {
        Map<String, Object> out = new java.util.TreeMap<>(job);
        for (String k : List.of("id", "queue", "args", "created_at", "enqueued_at", "run_at", "scheduled_at")) {
            out.remove(k);
        }
        List<Map<String, Object>> errors = (List<Map<String, Object>>) out.remove("errors");
        out.put("errors", errors.stream().map(e -> {
            Map<String, Object> c = new java.util.TreeMap<>(e);
            c.remove("timestamp");
            c.remove("occurred_at");
            return c;
        }).toList());
        return out;
    }

    @Test
    void deleteRemovesOneAndAdminDeleteAnswers204() {
        String a = deadLetter("dl-del", "t.d", "E");
        String b = deadLetter("dl-del", "t.d", "E");
        request().delete("/ojs/v1/dead-letter/" + a).then().statusCode(200).body(at("deleted", equalTo(true)));
        Api.info(a).then().statusCode(404);
        request().delete("/ojs/v1/admin/dead-letter/" + b).then().statusCode(204);
        Api.assertError(request().delete("/ojs/v1/dead-letter/" + a), 404, "not_found");
    }

    @Test
    void bulkOperationsNeedConfirmationAndActOnEveryMatch() {
        for (int i = 0; i < 5; i++) {
            deadLetter("dl-bulk", "t.b", "Transient");
        }
        deadLetter("dl-bulk", "t.b", "Permanent");
        Api.assertError(send(obj("filter", obj("error_type", "Transient"))).post("/ojs/v1/dead-letter/retry"),
                400, "invalid_request");
        Api.assertError(send(obj("filter", obj(), "confirm", false)).post("/ojs/v1/dead-letter/delete"),
                400, "invalid_request");
        request().get("/ojs/v1/dead-letter/stats").then().body(at("total", equalTo(6)));

        send(obj("filter", obj("error_type", "Transient"), "confirm", true)).post("/ojs/v1/dead-letter/retry")
                .then().statusCode(200).body(at("matched", equalTo(5))).body(at("succeeded", equalTo(5)));
        assertEquals(5, Api.fetchIds("w", 10, "dl-bulk").size());

        send(obj("filter", obj("queue", "dl-bulk"), "confirm", true)).post("/ojs/v1/dead-letter/delete")
                .then().statusCode(200).body(at("succeeded", equalTo(1)));
        request().get("/ojs/v1/dead-letter/stats").then().body(at("total", equalTo(0)));
    }

    @Test
    void adminShapesUseItemsAndPages() {
        deadLetter("dl-admin", "t.a", "E");
        deadLetter("dl-admin", "t.a", "E");
        deadLetter("dl-admin", "t.a", "E");
        Response r = request().get("/ojs/v1/admin/dead-letter?per_page=2&page=2");
        r.then().statusCode(200).body(at("items", hasSize(1))).body(at("pagination.total", equalTo(3)))
                .body(at("pagination.page", equalTo(2))).body(at("pagination.per_page", equalTo(2)));
        String id = path(r, "items[0].id");
        assertNotNull(id);
        request().post("/ojs/v1/admin/dead-letter/" + id + "/retry").then().statusCode(200)
                .body(at("job.state", equalTo("available")));
        request().get("/ojs/v1/admin/dead-letter/stats").then().statusCode(200).body(at("total", equalTo(2)));
    }
}
