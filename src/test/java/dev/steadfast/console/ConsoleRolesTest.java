package dev.steadfast.console;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.JsonPaths.at;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.ConsoleUser;
import dev.steadfast.testsupport.JobsInState;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Console roles (the test profile's users viewer = readonly, oper = operator, admin = admin): a read-only user sees
 * every page with no action on it and is refused every action with 403 however the form was made; an operator acts
 * but may not delete; an admin may do everything. Refusals change nothing and are written to the audit log.
 */
@QuarkusTest
class ConsoleRolesTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    /** Whether the page's only POST forms are the logout form (every page has it). */
    static boolean onlyLogout(String html) {
        return java.util.regex.Pattern.compile("<form[^>]*method=\"post\"[^>]*>").matcher(html).results()
                .allMatch(m -> m.group().contains("/admin/logout"));
    }

    @Test
    void aReadOnlyUserSeesEveryPageAndNoAction() {
        ConsoleUser viewer = ConsoleUser.login("viewer");
        String dead = JobsInState.deadLetter("cr-ro", "t.ro", "RoError", "x");
        Api.request().post("/ojs/v1/queues/cr-ro/pause").then().statusCode(200);
        String group = path(Api.request().get("/ojs/v1/admin/error-groups").then().statusCode(200).extract(), "groups[0].id");
        Api.send(obj("name", "cr-ro-nightly", "cron", "0 3 * * *", "type", "t.ro", "args", arr(),
                "options", obj("queue", "cr-ro"))).post("/ojs/v1/cron").then().statusCode(201);
        for (String page : List.of("/admin", "/admin/queues", "/admin/queues/cr-ro", "/admin/jobs",
                "/admin/jobs?state=discarded", "/admin/jobs/" + dead, "/admin/dead-letter", "/admin/errors",
                "/admin/errors/" + group, "/admin/workers", "/admin/cron", "/admin/cron/cr-ro-nightly",
                "/admin/workflows", "/admin/audit", "/admin/tools/retry")) {
            Response r = viewer.get(page);
            assertEquals(200, r.statusCode(), page);
            String html = r.asString();
            assertTrue(html.contains("(readonly)"), "the header names the role: " + page);
            assertFalse(html.contains("method=\"post\"") && !onlyLogout(html), page + " shows a form that posts");
            for (String action : List.of("type=\"checkbox\" name=\"id\"", "name=\"op\"")) {
                assertFalse(html.contains(action), page + " shows an action: " + action);
            }
        }
        ConsoleUser oper = ConsoleUser.login("oper");
        String asOperator = oper.get("/admin/dead-letter").asString();
        assertTrue(asOperator.contains("value=\"retry-matching\""), "an operator sees the re-enqueue buttons");
        assertFalse(asOperator.contains("value=\"delete-matching\""), "but not the delete buttons");
        assertTrue(ConsoleUser.login("admin").get("/admin/dead-letter").asString().contains("value=\"delete-matching\""));
        assertTrue(oper.get("/admin/queues").asString().contains("/admin/queues/cr-ro/resume"));
    }

    @Test
    void aReadOnlyUsersActionsAreRefusedAndChangeNothing() {
        ConsoleUser viewer = ConsoleUser.login("viewer");
        String dead = JobsInState.deadLetter("cr-ref", "t.ref", "RefError", "x");
        String retryable = JobsInState.retryable("cr-ref", "t.ref", "RefError", "y");
        List<String[]> forged = List.of(
                new String[] {"/admin/dead-letter/bulk", "op", "retry-matching", "queue", "cr-ref", "confirm", "yes"},
                new String[] {"/admin/dead-letter/bulk", "op", "retry-selected", "id", dead, "confirm", "yes"},
                new String[] {"/admin/jobs/" + retryable + "/actions/retry", "confirm", "yes"},
                new String[] {"/admin/jobs/" + retryable + "/actions/delete", "confirm", "yes"},
                new String[] {"/admin/queues/cr-ref/pause"});
        for (String[] f : forged) {
            String[] fields = java.util.Arrays.copyOfRange(f, 1, f.length);
            Response r = viewer.post(f[0], fields);
            assertEquals(403, r.statusCode(), f[0]);
            assertTrue(r.contentType().startsWith("text/html"), "the console's error page");
            assertTrue(r.asString().contains("Your role (readonly) may not do this"), r.asString());
        }
        assertEquals("discarded", state(dead));
        assertEquals("retryable", state(retryable));
        Api.request().get("/ojs/v1/queues/cr-ref").then().statusCode(200)
                .body(at("queue.status", org.hamcrest.Matchers.not("paused")));
        Response log = Api.request().get("/ojs/v1/admin/audit?actor=viewer&limit=5");
        assertEquals("refused", path(log, "entries[0].outcome"));
        assertEquals(403, (int) path(log, "entries[0].status"));
        assertEquals("queues.pause", path(log, "entries[0].action"));
        assertEquals("console", path(log, "entries[0].via"));
    }

    @Test
    void anOperatorActsButMayNotDelete() {
        ConsoleUser oper = ConsoleUser.login("oper");
        String id = JobsInState.retryable("cr-op", "t.op", "OpError", "x");
        assertEquals(303, oper.post("/admin/jobs/" + id + "/actions/retry", "confirm", "yes").statusCode());
        assertEquals("available", state(id));
        Response delete = oper.post("/admin/jobs/" + id + "/actions/delete", "confirm", "yes");
        assertEquals(403, delete.statusCode());
        assertTrue(delete.asString().contains("needs the admin role"), delete.asString());
        Api.info(id).then().statusCode(200);
        String dead = JobsInState.deadLetter("cr-op-dead", "t.op", "OpError", "x");
        assertEquals(403, oper.post("/admin/dead-letter/bulk", "op", "delete-selected", "id", dead, "confirm", "yes")
                .statusCode());
        assertEquals("discarded", state(dead));
        ConsoleUser admin = ConsoleUser.login("admin");
        assertEquals(303, admin.post("/admin/jobs/" + id + "/actions/delete", "confirm", "yes").statusCode());
        Api.info(id).then().statusCode(404);
    }

    @Test
    void everyRoleLogsOut() {
        ConsoleUser viewer = ConsoleUser.login("viewer");
        assertEquals(303, viewer.post("/admin/logout").statusCode());
    }
}
