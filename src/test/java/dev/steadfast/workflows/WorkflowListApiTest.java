package dev.steadfast.workflows;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /ojs/v1/workflows} against PostgreSQL: each filter, keyset pages, and bad input refused with 400. */
@QuarkusTest
class WorkflowListApiTest {

    static final String WORKFLOWS = "/ojs/v1/workflows";

    @Inject
    TestClock clock;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    /** Creates a workflow, then moves the clock 10 s on so that every workflow has its own created_at. */
    private String create(String type, String name, Object members) {
        Map<String, Object> body = obj("type", type, "name", name, type.equals("chain") ? "steps" : "jobs", members);
        if (type.equals("batch")) {
            body.put("callbacks", obj("on_complete", WorkflowApiTest.job("wl.done", "wl-q")));
        }
        String id = WorkflowApiTest.createId(body);
        clock.advance(Duration.ofSeconds(10));
        return id;
    }

    private static List<Object> two() {
        return arr(WorkflowApiTest.job("wl.a", "wl-q"), WorkflowApiTest.job("wl.b", "wl-q"));
    }

    private static Response list(String query) {
        Response r = request().urlEncodingEnabled(false).get(WORKFLOWS + query);
        assertEquals(200, r.statusCode(), r::asString);
        return r;
    }

    private static List<String> ids(String query) {
        return path(list(query), "workflows.id");
    }

    @Test
    void eachFilterNarrowsTheListNewestFirst() {
        String chain = create("chain", "Nightly report", two());
        String group = create("group", "import A", two());
        String batch = create("batch", "import B", two());
        String percent = create("group", "100% done", two());
        String outer = create("chain", "outer", arr(WorkflowApiTest.job("wl.a", "wl-q"),
                obj("type", "group", "name", "inner import", "jobs", two())));
        String inner = path(WorkflowApiTest.get(outer), "workflow.steps[1].workflow_id");
        request().delete(WORKFLOWS + "/" + chain).then().statusCode(200);

        assertEquals(List.of(outer, percent, batch, group, chain), ids(""), "top-level only, newest first");
        assertEquals(List.of(inner, outer, percent, batch, group, chain), ids("?nested=true"),
                "a nested workflow is created with its parent, after it by id");
        assertEquals(outer, path(list("?nested=true"), "workflows[0].parent_id"));
        assertEquals(List.of(percent, group), ids("?type=group"));
        assertEquals(List.of(inner, percent, group), ids("?type=group&nested=true"));
        assertEquals(List.of(chain), ids("?state=cancelled"));
        assertEquals(List.of(outer, percent, batch, group), ids("?state=running"));
        assertEquals(List.of(batch, group), ids("?name=IMPORT"), "a case-insensitive substring");
        assertEquals(List.of(inner, batch, group), ids("?name=import&nested=true"));
        assertEquals(List.of(percent), ids("?name=%25"), "% is a character, not a wildcard");
        assertEquals(List.of(), ids("?name=_"), "so is _");
        assertEquals(List.of(group), ids("?name=import&type=group&state=running"));

        String groupAt = path(WorkflowApiTest.get(group), "workflow.created_at");
        String percentAt = path(WorkflowApiTest.get(percent), "workflow.created_at");
        assertEquals(List.of(outer, percent, batch, group), ids("?created_after=" + groupAt), "inclusive");
        assertEquals(List.of(chain), ids("?created_before=" + groupAt), "exclusive");
        assertEquals(List.of(batch, group), ids("?created_after=" + groupAt + "&created_before=" + percentAt));
        assertEquals(List.of(group), ids("?created_after=" + groupAt.replace("Z", "%2B00:00")
                + "&created_before=" + percentAt + "&type=group"), "any RFC 3339 offset");

        Map<String, Object> first = path(list("?type=batch"), "workflows[0]");
        assertEquals("batch", first.get("type"));
        assertEquals("import B", first.get("name"));
        assertEquals("running", first.get("state"));
        assertEquals(2, first.get("steps_total"), "its jobs, not its callbacks");
        assertEquals(0, first.get("steps_completed"));
        assertNull(first.get("parent_id"));
        assertTrue(Api.TIMESTAMP.matcher((String) first.get("created_at")).matches());
        Map<String, Object> cancelled = path(list("?state=cancelled"), "workflows[0]");
        assertEquals(2, cancelled.get("steps_cancelled"));
        assertTrue(Api.TIMESTAMP.matcher((String) cancelled.get("cancelled_at")).matches());
        assertEquals(1, (int) path(list("?state=cancelled"), "pagination.total"));
    }

    @Test
    void keysetPagesWalkEveryWorkflowOnceEvenWhenNewOnesArrive() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            created.add(0, create("group", "page " + i, two()));
        }
        create("group", "other", two());
        Response p1 = list("?name=page&limit=3");
        assertEquals(created.subList(0, 3), path(p1, "workflows.id"));
        assertEquals(7, (int) path(p1, "pagination.total"));
        assertEquals(3, (int) path(p1, "pagination.limit"));
        assertTrue((Boolean) path(p1, "pagination.has_more"));
        create("group", "page new", two()); // newer than page 1: never shows up on later pages
        Response p2 = list("?name=page&limit=3&cursor=" + path(p1, "pagination.next_cursor"));
        assertEquals(created.subList(3, 6), path(p2, "workflows.id"));
        Response p3 = list("?name=page&limit=3&cursor=" + path(p2, "pagination.next_cursor"));
        assertEquals(created.subList(6, 7), path(p3, "workflows.id"));
        assertFalse((Boolean) path(p3, "pagination.has_more"));
        assertFalse(p3.prettyPrint().contains("next_cursor"), "no cursor on the last page");

        List<String> all = new ArrayList<>();
        String cursor = null;
        do {
            Response p = list("?limit=2" + (cursor == null ? "" : "&cursor=" + cursor));
            all.addAll(path(p, "workflows.id"));
            cursor = path(p, "pagination.next_cursor");
        } while (cursor != null);
        assertEquals(9, all.size());
        assertEquals(9, new HashSet<>(all).size(), "no workflow twice");
        assertEquals(50, (int) path(list(""), "pagination.limit"), "the default limit");
    }

    @Test
    void badFiltersAreRefusedNamingTheParameter() {
        create("group", "x", two());
        bad("?state=sleeping", "state");
        bad("?type=dag", "type");
        bad("?type=", null); // empty means any: answered 200 below
        bad("?created_after=yesterday", "created_after");
        bad("?created_before=2026-11-26", "created_before");
        bad("?created_after=2026-11-26T10:00:00Z&created_before=2026-11-26T10:00:00Z", "created_before");
        bad("?limit=0", "limit");
        bad("?limit=201", "limit");
        bad("?limit=ten", "limit");
        bad("?cursor=not-a-cursor", "cursor");
        bad("?cursor=" + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("2026|x".getBytes()), "cursor");
        bad("?nested=maybe", "nested");
        bad("?name=" + "n".repeat(256), "name");
        bad("?name=a%01b", "name");
        assertEquals(1, ids("?limit=200").size(), "a refused request changed nothing");
    }

    private static void bad(String query, String field) {
        Response r = request().urlEncodingEnabled(false).get(WORKFLOWS + query);
        if (field == null) {
            assertEquals(200, r.statusCode(), r::asString);
            return;
        }
        Map<String, Object> e = assertError(r, 400, "invalid_request");
        assertEquals(field, detailField(e), r::asString);
    }
}
