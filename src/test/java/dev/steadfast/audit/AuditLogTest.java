package dev.steadfast.audit;

import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.maintenance.Pruner;
import dev.steadfast.store.audit.AuditStore;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.ConsoleUser;
import dev.steadfast.testsupport.JobsInState;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The audit log against real PostgreSQL: changes from the admin API and from the console are recorded with who,
 * what, scope, how many jobs, from where and how they ended; confirmation pages and reads are not; GET
 * /ojs/v1/admin/audit filters and pages; the pruner drops entries past retention; and no row can be updated.
 */
@QuarkusTest
class AuditLogTest {

    private static final String AUDIT = "/ojs/v1/admin/audit";

    @Inject
    AuditStore store;

    @Inject
    Pruner pruner;

    @Inject
    Pool pool;

    @Inject
    Clock clock;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static Response newest(String actor) {
        return Api.request().get(AUDIT + "?limit=1&actor=" + actor).then().statusCode(200).extract().response();
    }

    @Test
    void adminApiChangesAreRecorded() {
        String id = JobsInState.retryable("au-api", "t.au", "AuError", "x");
        Api.request().post("/ojs/v1/admin/jobs/" + id + "/retry").then().statusCode(200);
        Response e = newest("authentication-off");
        assertEquals("jobs.retry", path(e, "entries[0].action"));
        assertEquals("api", path(e, "entries[0].via"));
        assertEquals(id, path(e, "entries[0].scope.id"));
        assertEquals(1, (int) path(e, "entries[0].jobs"));
        assertEquals("ok", path(e, "entries[0].outcome"));
        assertEquals(200, (int) path(e, "entries[0].status"));
        assertNotNull(path(e, "entries[0].client"));
        assertTrue(Api.TIMESTAMP.matcher(path(e, "entries[0].at")).matches());

        JobsInState.deadLetter("au-bulk", "t.au", "AuError", "x");
        JobsInState.deadLetter("au-bulk", "t.au", "AuError", "y");
        send(obj("filter", obj("queue", "au-bulk"), "confirm", true)).post("/ojs/v1/dead-letter/retry")
                .then().statusCode(200);
        Response bulk = newest("authentication-off");
        assertEquals("dead-letter.retry-matching", path(bulk, "entries[0].action"));
        assertEquals(2, (int) path(bulk, "entries[0].jobs"), "the jobs the bulk retry touched");

        Api.request().post("/ojs/v1/admin/jobs/" + Api.newUuidV7() + "/retry").then().statusCode(404);
        Response missing = newest("authentication-off");
        assertEquals("rejected", path(missing, "entries[0].outcome"));
        assertNull(path(missing, "entries[0].jobs"));

        Api.request().get("/ojs/v1/admin/jobs/" + id).then().statusCode(200);
        Api.request().post("/ojs/v1/jobs", Map.of()).then();
        assertEquals((String) path(missing, "entries[0].id"), (String) path(newest("authentication-off"), "entries[0].id"),
                "reads and producer work are not recorded");
    }

    @Test
    void anOperatorsBulkRetryFromTheConsoleIsRecordedOnceConfirmed() {
        ConsoleUser oper = ConsoleUser.login("oper");
        for (int i = 0; i < 3; i++) {
            JobsInState.deadLetter("au-console", "t.au", "AuError", "x" + i);
        }
        String before = path(newest("oper"), "entries[0].id");
        assertEquals(200, oper.post("/admin/dead-letter/bulk", "op", "retry-matching", "queue", "au-console")
                .statusCode(), "the confirmation page");
        assertEquals(before, (String) path(newest("oper"), "entries[0].id"), "asking changes nothing and records nothing");
        assertEquals(303, oper.post("/admin/dead-letter/bulk", "op", "retry-matching", "queue", "au-console",
                "confirm", "yes").statusCode());
        Response e = newest("oper");
        assertEquals("dead-letter.retry-matching", path(e, "entries[0].action"));
        assertEquals("console", path(e, "entries[0].via"));
        assertEquals("au-console", path(e, "entries[0].scope.queue"));
        assertEquals(3, (int) path(e, "entries[0].jobs"));
        assertNull(path(e, "entries[0].scope._csrf"), "never the CSRF token");
        String page = oper.get("/admin/audit?actor=oper").asString();
        assertTrue(page.contains("dead-letter.retry-matching"), page);
        assertTrue(page.contains("data-audit-id=\"" + path(e, "entries[0].id") + "\""), page);
    }

    @Test
    void filtersAndKeysetPages() {
        Instant now = clock.instant();
        String actor = "au-pager-" + System.nanoTime();
        for (int i = 0; i < 5; i++) {
            store.append(now.minusSeconds(60 - i), actor, "api", i % 2 == 0 ? "x.even" : "x.odd", Map.of("i", i),
                    (long) i, "10.0.0.1", "ok", 200).await().indefinitely();
        }
        List<Integer> seen = new ArrayList<>();
        String cursor = null;
        do {
            Response p = Api.request().get(AUDIT + "?limit=2&actor=" + actor + (cursor == null ? "" : "&cursor=" + cursor))
                    .then().statusCode(200).extract().response();
            seen.addAll(path(p, "entries.scope.i"));
            cursor = path(p, "next_cursor");
        } while (cursor != null);
        assertEquals(List.of(4, 3, 2, 1, 0), seen, "newest first, every entry once");
        assertEquals(List.of(4, 2, 0), path(Api.request().get(AUDIT + "?actor=" + actor + "&action=x.even")
                .then().statusCode(200).extract(), "entries.scope.i"));
        String from = now.minusSeconds(58).toString();
        String to = now.minusSeconds(56).toString();
        assertEquals(List.of(3, 2), path(Api.request().get(AUDIT + "?actor=" + actor + "&since=" + from + "&until=" + to)
                .then().statusCode(200).extract(), "entries.scope.i"));
        Api.assertError(Api.request().get(AUDIT + "?cursor=abc"), 400, "invalid_request");
        Api.assertError(Api.request().get(AUDIT + "?until=tomorrow"), 400, "invalid_request");
    }

    @Test
    void retentionDropsOldEntriesOnly() {
        Instant now = clock.instant();
        String actor = "au-retention-" + System.nanoTime();
        store.append(now.minus(Duration.ofDays(91)), actor, "api", "x.old", Map.of(), null, null, "ok", 200)
                .await().indefinitely();
        store.append(now.minus(Duration.ofDays(89)), actor, "api", "x.recent", Map.of(), null, null, "ok", 200)
                .await().indefinitely();
        int pruned = pruner.pruneAudit(now).await().indefinitely();
        assertTrue(pruned >= 1, "pruned " + pruned);
        assertEquals(List.of("x.recent"), path(Api.request().get(AUDIT + "?actor=" + actor).then().statusCode(200)
                .extract(), "entries.action"));
    }

    @Test
    void entriesCannotBeUpdated() {
        long id = store.append(clock.instant(), "au-append-only", "api", "x.y", Map.of(), null, null, "ok", 200)
                .await().indefinitely();
        RuntimeException e = assertThrows(RuntimeException.class, () -> pool.preparedQuery(
                "UPDATE audit_log SET actor = 'someone-else' WHERE id = $1").execute(Tuple.of(id))
                .await().indefinitely());
        assertTrue(e.getMessage().contains("append-only"), e.getMessage());
        assertEquals("au-append-only", path(newest("au-append-only"), "entries[0].actor"));
    }
}
