package dev.steadfast.console.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.Console.flash;
import static dev.steadfast.testsupport.Console.get;
import static dev.steadfast.testsupport.Console.post;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.BulkJobAction;
import dev.steadfast.domain.JobState;
import dev.steadfast.model.BulkScope;
import dev.steadfast.model.JobFilter;
import dev.steadfast.store.JobBulkStore;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JobsInState;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The jobs list: state tabs with counts, the args preview and args conditions in the search box, and the bulk
 * actions on a selection or on everything matching, each confirmed with its count, never touching an active job.
 */
@QuarkusTest
class ConsoleJobsListTest {

    @Inject
    JobBulkStore bulkStore;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void tabsCountEveryStateAndTheArgsAreShownEscaped() {
        // each builder fetches the next job of its queue: the ones that fetch come first
        JobsInState.retryable("jl-tabs", "t.r", "E", "m");
        JobsInState.retryable("jl-tabs", "t.r", "E", "m");
        JobsInState.available("jl-tabs", "t.a", arr(obj("user_id", 42, "html", "<b>x</b>")), Map.of());
        JobsInState.completed("jl-other", "t.c");
        String page = get("/admin/jobs").asString();
        assertTrue(page.contains("data-state=\"retryable\">retryable <span class=\"count\">2</span>"), page);
        assertTrue(page.contains("data-state=\"\" aria-current=\"page\">All <span class=\"count\">4</span>"), page);
        assertTrue(page.contains("[{&quot;html&quot;: &quot;&lt;b&gt;x&lt;/b&gt;&quot;, &quot;user_id&quot;: 42}]"),
                "the args as escaped JSON");
        String queue = get("/admin/jobs?queue=jl-other&state=completed").asString();
        assertTrue(queue.contains("data-state=\"completed\" aria-current=\"page\">completed <span class=\"count\">1"),
                "a queue filter counts that queue");
        assertTrue(queue.contains("data-state=\"retryable\">retryable <span class=\"count\">0"), queue);
    }

    @Test
    void argsConditionsMatchNumbersStringsAndNestedPaths() {
        String edinburgh = JobsInState.available("jl-args", "t.a",
                arr(obj("user_id", 42, "address", obj("city", "Edinburgh"))), Map.of());
        String glasgow = JobsInState.available("jl-args", "t.a",
                arr(obj("user_id", 42, "address", obj("city", "Glasgow"))), Map.of());
        String other = JobsInState.available("jl-args", "t.a", arr(obj("user_id", "42", "n", 420)), Map.of());
        assertEquals(List.of(glasgow, edinburgh), ids(get("/admin/jobs?q=args.user_id:42").asString()));
        assertEquals(List.of(edinburgh), ids(get("/admin/jobs?q=args.user_id:42 args.address.city:Edinburgh")
                .asString()));
        Response quoted = post("/admin/jobs/bulk", "op", "delete-matching", "q", "args.user_id:\"42\"");
        assertTrue(quoted.asString().contains("Delete 1 job?"), "quoted: a string, " + quoted.asString());
        assertEquals("available", state(other));
        assertEquals(List.of(), ids(get("/admin/jobs?q=args.n:42").asString()), "420 is not 42");
        assertEquals(List.of(edinburgh), ids(get("/admin/jobs?state=available&q=args.address.city:Edinburgh")
                .asString()));
        assertEquals(List.of(glasgow), ids(get("/admin/jobs?q=Glasgow args.user_id:42").asString()), "with text");

        Response bad = get("/admin/jobs?q=args.user_id");
        assertEquals(400, bad.statusCode());
        assertTrue(bad.contentType().startsWith("text/html"));
        assertTrue(bad.asString().contains("needs a value after a colon"), bad.asString());
        assertEquals(400, get("/admin/jobs?q=args.a..b:1").statusCode());
    }

    @Test
    void retryTheSelectionAfterAConfirmationThatCountsOnlyWhatItChanges() {
        String a = JobsInState.retryable("jl-sel", "t.r", "E", "m");
        String b = JobsInState.retryable("jl-sel", "t.r", "E", "m");
        String active = enqueue("t.x", "jl-sel-active");
        assertEquals(active, fetchOne("w-1", "jl-sel-active"));

        Response ask = post("/admin/jobs/bulk", "op", "retry-selected", "id", a, "id", b, "id", active);
        assertEquals(200, ask.statusCode());
        assertTrue(ask.asString().contains("Retry 2 jobs?"), ask.asString());
        assertTrue(ask.asString().contains("name=\"confirm\" value=\"yes\""));
        assertEquals("retryable", state(a), "asking changes nothing");

        Response done = post("/admin/jobs/bulk", "op", "retry-selected", "id", a, "id", b, "id", active,
                "confirm", "yes");
        assertEquals(303, done.statusCode());
        assertEquals("Retried 2 jobs.", flash(done));
        assertEquals("available", state(a));
        assertEquals("available", state(b));
        assertEquals("active", state(active), "a job its worker holds is untouched");

        post("/admin/jobs/bulk", "op", "delete-selected", "id", active, "confirm", "yes").then().statusCode(303);
        assertEquals("active", state(active), "not deleted from under its worker");
    }

    @Test
    void actOnEverythingMatchingTheFilterWithItsExactCount() {
        // each builder fetches the next job of its queue: the ones that fetch come first
        String active = enqueue("t.m", "jl-all");
        assertEquals(active, fetchOne("w-2", "jl-all"));
        String done = JobsInState.completed("jl-all", "t.m");
        String dead = JobsInState.deadLetter("jl-all", "t.m", "E", "m");
        String retryable = JobsInState.retryable("jl-all", "t.m", "E", "m");
        String waiting2 = JobsInState.scheduled("jl-all", "t.m");
        String waiting1 = enqueue("t.m", "jl-all");
        String elsewhere = enqueue("t.m", "jl-else");

        Response ask = post("/admin/jobs/bulk", "op", "cancel-matching", "queue", "jl-all");
        assertTrue(ask.asString().contains("Cancel 3 jobs?"), ask.asString());
        assertTrue(ask.asString().contains("every job in queue jl-all"), ask.asString());
        Response cancelled = post("/admin/jobs/bulk", "op", "cancel-matching", "queue", "jl-all", "confirm", "yes");
        assertEquals("Cancelled 3 jobs.", flash(cancelled));
        assertTrue(cancelled.header("Location").contains("queue=jl-all"), "back to the same filter");
        for (String id : List.of(waiting1, waiting2, retryable)) {
            assertEquals("cancelled", state(id));
        }
        assertEquals("active", state(active));
        assertEquals("available", state(elsewhere), "another queue is not in the filter");

        Response askRetry = post("/admin/jobs/bulk", "op", "retry-matching", "queue", "jl-all", "state", "discarded");
        assertTrue(askRetry.asString().contains("Retry 1 job?"), askRetry.asString());
        post("/admin/jobs/bulk", "op", "retry-matching", "queue", "jl-all", "state", "discarded", "confirm", "yes")
                .then().statusCode(303);
        assertEquals("available", state(dead), "the dead letter started a new run");
        assertEquals("cancelled", state(waiting1), "the state tab narrowed the retry");

        Response askDelete = post("/admin/jobs/bulk", "op", "delete-matching", "queue", "jl-all");
        assertTrue(askDelete.asString().contains("Delete 5 jobs?"), askDelete.asString());
        Response deleted = post("/admin/jobs/bulk", "op", "delete-matching", "queue", "jl-all", "confirm", "yes");
        assertEquals("Deleted 5 jobs.", flash(deleted));
        Api.info(done).then().statusCode(404);
        Api.info(dead).then().statusCode(404);
        assertEquals("active", state(active), "the active job outlives delete-matching");

        Response nothing = post("/admin/jobs/bulk", "op", "retry-matching", "queue", "jl-all", "state", "active");
        assertTrue(nothing.asString().contains("Retry 0 jobs?") && !nothing.asString().contains("confirm\" value"),
                "nothing to confirm");
    }

    @Test
    void matchingTakesArgsConditionsAndBadRequestsAre400() {
        String mine = JobsInState.available("jl-ba", "t.a", arr(obj("user_id", 7)), Map.of());
        String theirs = JobsInState.available("jl-ba", "t.a", arr(obj("user_id", 8)), Map.of());
        Response ask = post("/admin/jobs/bulk", "op", "delete-matching", "q", "args.user_id:7");
        assertTrue(ask.asString().contains("Delete 1 job?"), ask.asString());
        assertTrue(ask.asString().contains("whose args have user_id = 7"), ask.asString());
        post("/admin/jobs/bulk", "op", "delete-matching", "q", "args.user_id:7", "confirm", "yes")
                .then().statusCode(303);
        Api.info(mine).then().statusCode(404);
        assertEquals("available", state(theirs));

        post("/admin/jobs/bulk", "op", "retry-selected").then().statusCode(400);
        post("/admin/jobs/bulk", "op", "explode").then().statusCode(400);
        post("/admin/jobs/bulk", "op", "delete-matching", "q", "args.x").then().statusCode(400);
        post("/admin/jobs/bulk", "op", "delete-matching", "state", "nonsense").then().statusCode(400);
    }

    @Test
    void eachBatchIsBoundedAndTheLoopEndsOnAShortOne() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            ids.add(enqueue("t.b", "jl-batch"));
        }
        BulkScope scope = BulkScope.of(new JobFilter(null, "jl-batch", null, false, null, null, null, null));
        String[] waiting = BulkJobAction.CANCEL.sources().stream().map(JobState::wire).toArray(String[]::new);
        Instant now = Instant.now();
        assertEquals(3, bulkStore.cancelBatch(scope, waiting, now, 3).await().indefinitely());
        assertEquals(3, bulkStore.cancelBatch(scope, waiting, now, 3).await().indefinitely());
        assertEquals(1, bulkStore.cancelBatch(scope, waiting, now, 3).await().indefinitely());
        assertEquals(0, bulkStore.cancelBatch(scope, waiting, now, 3).await().indefinitely());
        ids.forEach(id -> assertEquals("cancelled", state(id)));
        assertEquals(new JobBulkStore.Matching(7, false),
                bulkStore.count(scope, new String[0], new String[] {"cancelled"}).await().indefinitely());
        assertFalse(ids.isEmpty());
    }

    @Test
    void aConfirmationStopsCountingAtTheCapAndSaysSoButTheActionTakesEveryMatch() {
        int n = JobBulkStore.COUNT_CAP + 5;
        for (int from = 0; from < n; from += 1000) {
            StringBuilder jobs = new StringBuilder("{\"jobs\": [");
            for (int i = from; i < Math.min(n, from + 1000); i++) {
                jobs.append(i == from ? "" : ",").append("{\"type\": \"t.cap\", \"args\": [{\"k\": 7}],"
                        + " \"options\": {\"queue\": \"jl-cap\", \"tags\": [\"cap\"]}}");
            }
            Api.request().contentType("application/json").body(jobs.append("]}").toString())
                    .post("/ojs/v1/jobs/batch").then().statusCode(201);
        }
        Response ask = post("/admin/jobs/bulk", "op", "cancel-matching", "queue", "jl-cap", "tag", "cap");
        assertTrue(ask.asString().contains("Cancel at least 10,000 jobs?"), ask.asString());
        assertTrue(ask.asString().contains("Counting stopped at 10,000 per table;"), ask.asString());
        // an args search reads at most 5,000 of the live jobs, which have no search index
        Response search = post("/admin/jobs/bulk", "op", "cancel-matching", "queue", "jl-cap", "q", "args.k:7");
        assertTrue(search.asString().contains("Cancel at least 5,000 jobs?"), search.asString());
        assertTrue(search.asString().contains("counts among the newest 5,000 live jobs"), search.asString());
        Response done = post("/admin/jobs/bulk", "op", "cancel-matching", "queue", "jl-cap", "q", "args.k:7",
                "confirm", "yes");
        assertEquals("Cancelled 10,005 jobs.", flash(done), "the action takes every match, past the count's cap");
    }

    private static List<String> ids(String page) {
        List<String> out = new ArrayList<>();
        var m = java.util.regex.Pattern.compile("name=\"id\" value=\"([0-9a-f-]{36})\"").matcher(page);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
