package dev.steadfast.errorgroups;

import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.Console.flash;
import static dev.steadfast.testsupport.Console.post;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Console;
import dev.steadfast.testsupport.JobsInState;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Error groups against the real FAIL path and PostgreSQL: failures with one cause (type and normalised message)
 * land in one group, counted per hour, with their queues and types; a group's jobs are listed live and from the
 * history in keyset pages; retry, discard and delete act on exactly the group's jobs after a confirmation.
 */
@QuarkusTest
class ErrorGroupsTest {

    static final String BASE = "/ojs/v1/admin/error-groups";

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static JsonPath groups() {
        return Api.request().get(BASE).then().statusCode(200).extract().jsonPath();
    }

    private static Map<String, Object> group(String errorType) {
        List<Map<String, Object>> all = groups().getList("groups");
        return all.stream().filter(g -> errorType.equals(g.get("error_type"))).findFirst().orElseThrow();
    }

    @Test
    void failuresWithOneCauseFallIntoOneGroup() {
        Instant before = Instant.now();
        String d1 = JobsInState.deadLetter("eg-a", "eg.sync", "LockError", "row 17 is locked by 'w-1'");
        String d2 = JobsInState.deadLetter("eg-b", "eg.sync", "LockError", "row 9 is locked by 'w-22'");
        String r1 = JobsInState.retryable("eg-c", "eg.other", "LockError", "row 3 is locked by 'x'");
        JobsInState.deadLetter("eg-d", "eg.sync", "DiskFull", "no space left on device 0x1f");

        JsonPath all = groups();
        assertEquals(2, all.getList("groups").size());
        assertNull(all.get("next_cursor"));
        Map<String, Object> g = group("LockError");
        assertEquals("row <n> is locked by '?'", g.get("message"));
        assertEquals(3, ((Number) g.get("failures")).intValue());
        assertEquals(Set.of("eg-a", "eg-b", "eg-c"), new HashSet<>((List<?>) g.get("queues")));
        assertEquals(Set.of("eg.sync", "eg.other"), new HashSet<>((List<?>) g.get("types")));
        List<?> hourly = (List<?>) g.get("hourly");
        assertEquals(24, hourly.size());
        assertEquals(3, hourly.stream().mapToInt(n -> ((Number) n).intValue()).sum());
        Instant from = Instant.parse((String) g.get("hourly_from"));
        assertTrue(!from.plus(Duration.ofHours(24)).isBefore(before), "the buckets end with the current hour");
        assertTrue(((String) g.get("id")).matches("[0-9a-f]{16}"));
        assertEquals("no space left on device <hex>", group("DiskFull").get("message"));

        // the group's jobs, live (retryable) and in the history (dead letters), two per page
        String id = (String) g.get("id");
        JsonPath first = Api.request().get(BASE + "/" + id + "?limit=2").then().statusCode(200).extract().jsonPath();
        assertEquals(3, first.getInt("counts.jobs"));
        assertEquals(2, first.getInt("counts.dead_letters"));
        assertEquals(1, first.getInt("counts.retryable"));
        assertEquals(3, first.getInt("counts.actions.retry"));
        assertEquals(1, first.getInt("counts.actions.discard"));
        assertEquals(3, first.getInt("counts.actions.delete"));
        List<String> ids = new ArrayList<>(first.getList("jobs.id"));
        assertEquals(2, ids.size());
        String cursor = first.getString("next_cursor");
        assertNotNull(cursor);
        JsonPath second = Api.request().get(BASE + "/" + id + "?limit=2&cursor=" + cursor).then().statusCode(200)
                .extract().jsonPath();
        ids.addAll(second.getList("jobs.id"));
        assertNull(second.get("next_cursor"));
        assertEquals(Set.of(d1, d2, r1), new HashSet<>(ids));
        assertEquals(3, ids.size());

        Api.request().get(BASE + "/ffffffffffffffff").then().statusCode(404);
        Api.request().get(BASE + "/not-an-id").then().statusCode(404);
        Api.request().get(BASE + "?cursor=bogus").then().statusCode(400);
        Api.request().get(BASE + "/" + id + "?cursor=bogus").then().statusCode(400);
    }

    @Test
    void aGroupRetryReEnqueuesExactlyTheGroupsDeadLetters() {
        List<String> dead = List.of(
                JobsInState.deadLetter("eg-r1", "eg.pay", "Declined", "card 4242 declined"),
                JobsInState.deadLetter("eg-r2", "eg.pay", "Declined", "card 1111 declined"),
                JobsInState.deadLetter("eg-r3", "eg.pay", "Declined", "card 9999 declined"));
        String retryable = JobsInState.retryable("eg-r4", "eg.pay", "Declined", "card 5 declined");
        String other = JobsInState.deadLetter("eg-r5", "eg.pay", "Timeout", "gateway timed out after 30s");
        String discarded = JobsInState.discarded("eg-r6", "eg.pay", "Timeout", "gateway timed out after 31s");
        String id = (String) group("Declined").get("id");

        Response ask = post("/admin/errors/" + id + "/retry");
        assertEquals(200, ask.statusCode());
        assertTrue(ask.asString().contains("Retry 4 jobs of this error group?"), ask.asString());
        assertTrue(ask.asString().contains("name=\"confirm\" value=\"yes\""));
        dead.forEach(d -> assertEquals("discarded", state(d), "asking changes nothing"));

        Response done = post("/admin/errors/" + id + "/retry", "confirm", "yes");
        assertEquals(303, done.statusCode());
        assertEquals("Retried 4 jobs.", flash(done));
        dead.forEach(d -> assertEquals("available", state(d)));
        assertEquals("available", state(retryable));
        assertEquals("discarded", state(other), "another group's dead letter stays");
        assertEquals("discarded", state(discarded), "another group's discarded job stays");

        // new runs leave the group; the job retried in place still carries the error until it succeeds
        JsonPath after = Api.request().get(BASE + "/" + id).then().statusCode(200).extract().jsonPath();
        assertEquals(1, after.getInt("counts.jobs"));
        assertEquals(1, after.getInt("counts.other"));
        assertEquals(List.of(retryable), after.getList("jobs.id"));
        assertEquals(4, after.getInt("group.failures"), "the count is history: failures, not jobs");
        assertEquals(retryable, Api.fetchOne("w", "eg-r4"));
        Api.ack(retryable).then().statusCode(200);
        assertEquals(0, Api.request().get(BASE + "/" + id).then().extract().jsonPath().getInt("counts.jobs"));
    }

    @Test
    void discardAndDeleteActOnTheWholeGroup() {
        String r1 = JobsInState.retryable("eg-x1", "eg.mail", "Bounce", "mailbox a@b.io full");
        String r2 = JobsInState.retryable("eg-x2", "eg.mail", "Bounce", "mailbox c@d.io full");
        String d1 = JobsInState.deadLetter("eg-x3", "eg.mail", "Bounce", "mailbox e@f.io full");
        String keep = JobsInState.retryable("eg-x4", "eg.mail", "Other", "mailbox e@f.io full");
        String id = (String) group("Bounce").get("id");

        assertTrue(post("/admin/errors/" + id + "/discard").asString().contains("Discard 2 jobs"));
        Response discard = post("/admin/errors/" + id + "/discard", "confirm", "yes");
        assertEquals(303, discard.statusCode());
        assertEquals("Discarded 2 jobs.", flash(discard));
        assertEquals("discarded", state(r1));
        assertEquals("discarded", state(r2));
        assertEquals("retryable", state(keep));

        assertTrue(post("/admin/errors/" + id + "/delete").asString().contains("Delete 3 jobs"));
        Response delete = post("/admin/errors/" + id + "/delete", "confirm", "yes");
        assertEquals("Deleted 3 jobs.", flash(delete));
        for (String gone : List.of(r1, r2, d1)) {
            Api.info(gone).then().statusCode(404);
        }
        assertEquals("retryable", state(keep));
        Api.request().get(BASE + "/" + id).then().statusCode(404);
        assertFalse(groups().getList("groups.error_type").contains("Bounce"), "an empty deleted group is forgotten");

        Response unknown = post("/admin/errors/" + id + "/explode", "confirm", "yes");
        assertEquals(400, unknown.statusCode());
    }

    @Test
    void theConsolePagesShowGroupsAndTheirJobs() {
        String d = JobsInState.deadLetter("eg-p", "eg.page", "ParseError", "bad token \"<x>\" at 12");
        String id = (String) group("ParseError").get("id");
        String list = Console.get("/admin/errors").then().statusCode(200).extract().asString();
        assertTrue(list.contains("href=\"/admin/errors/" + id + "\""), list);
        assertTrue(list.contains("bad token &quot;?&quot; at &lt;n&gt;"), list);
        assertTrue(list.contains("<svg class=\"sparkline"), list);
        assertTrue(list.contains("aria-current=\"page\">Errors</a>"), "the navigation marks the page");
        String page = Console.get("/admin/errors/" + id).then().statusCode(200).extract().asString();
        assertTrue(page.contains("href=\"/admin/jobs/" + d + "\""), page);
        assertTrue(page.contains("action=\"/admin/errors/" + id + "/retry\""));
        Response missing = Console.get("/admin/errors/0000000000000000");
        assertEquals(404, missing.statusCode());
        assertTrue(missing.contentType().startsWith("text/html"));
    }
}
