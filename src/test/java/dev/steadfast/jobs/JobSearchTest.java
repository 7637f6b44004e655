package dev.steadfast.jobs;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.model.JobFilter;
import dev.steadfast.operations.JobSearchService;
import dev.steadfast.store.JobSummary;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JobsInState;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Job listings: each filter, text search over args, meta and errors, and keyset pages in both directions. */
@QuarkusTest
class JobSearchTest {

    @Inject
    TestClock clock;

    @Inject
    JobSearchService search;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private List<String> ids(JobFilter f) {
        return search.page(f, false, null, null, 100).await().indefinitely().jobs().stream()
                .map(j -> j.id().toString()).toList();
    }

    private static JobFilter text(String t) {
        return new JobFilter(null, null, null, false, null, null, null, t);
    }

    @Test
    void filtersByStateQueueTypeTagAndTime() {
        String a = Api.enqueue(obj("type", "mail.send", "args", arr(), "options", obj("queue", "s-a", "tags", arr("vip"))));
        String b = JobsInState.retryable("s-b", "mail.bounce", "SmtpError", "mailbox full");
        String c = JobsInState.completed("s-c", "report.build");
        assertEquals(List.of(b), ids(new JobFilter(JobState.RETRYABLE, null, null, false, null, null, null, null)));
        assertEquals(List.of(c), ids(new JobFilter(null, "s-c", null, false, null, null, null, null)));
        assertEquals(List.of(a), ids(new JobFilter(null, null, "mail.send", false, null, null, null, null)));
        assertEquals(List.of(b, a), ids(new JobFilter(null, null, "mail.", true, null, null, null, null)));
        assertEquals(List.of(a), ids(new JobFilter(null, null, null, false, "vip", null, null, null)));
        java.time.Instant future = clock.instant().plusSeconds(60);
        assertEquals(List.of(), ids(new JobFilter(null, null, null, false, null, future, null, null)));
        assertEquals(List.of(c, b, a), ids(new JobFilter(null, null, null, false, null, null, future, null)));
    }

    @Test
    void textSearchLooksInArgsMetaAndErrorsAndTakesWildcardsLiterally() {
        String inArgs = JobsInState.available("t-a", "x.y", arr("invoice-4711@example.com"), Map.of());
        String inMeta = JobsInState.available("t-m", "x.y", arr(), Map.of("tenant", "acme_corp"));
        String inErrors = JobsInState.deadLetter("t-e", "x.y", "GatewayTimeout", "upstream said 100% busy");
        assertEquals(List.of(inArgs), ids(text("4711@EXAMPLE")));
        assertEquals(List.of(inMeta), ids(text("acme_corp")));
        assertEquals(List.of(), ids(text("acmeXcorp")), "_ is not a wildcard");
        assertEquals(List.of(inErrors), ids(text("100% busy")));
        assertEquals(List.of(inErrors), ids(text("GatewayTimeout")));
        OjsException e = assertThrows(OjsException.class, () -> ids(text("ab")));
        assertEquals("q", e.details().get("field"));
    }

    @Test
    void keysetPagesVisitEveryJobOnceInBothDirections() {
        List<String> all = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            all.add(Api.enqueue("k.t", "keyset"));
        }
        Collections.reverse(all); // newest first
        JobFilter f = new JobFilter(null, "keyset", null, false, null, null, null, null);
        JobSearchService.JobPage p1 = search.page(f, false, null, null, 3).await().indefinitely();
        assertNull(p1.prevCursor());
        JobSearchService.JobPage p2 = search.page(f, false, p1.nextCursor(), null, 3).await().indefinitely();
        JobSearchService.JobPage p3 = search.page(f, false, p2.nextCursor(), null, 3).await().indefinitely();
        assertNull(p3.nextCursor());
        List<String> seen = new ArrayList<>();
        for (JobSearchService.JobPage p : List.of(p1, p2, p3)) {
            p.jobs().forEach(j -> seen.add(j.id().toString()));
        }
        assertEquals(all, seen);
        JobSearchService.JobPage back = search.page(f, false, null, p3.prevCursor(), 3).await().indefinitely();
        assertEquals(ids(p2), ids(back));
        JobSearchService.JobPage top = search.page(f, false, null, p2.prevCursor(), 3).await().indefinitely();
        assertEquals(ids(p1), ids(top), "going back past the start lands on the first page");
        List<JobSummary> oldest = search.page(f, true, null, null, 2).await().indefinitely().jobs();
        assertEquals(List.of(all.get(6), all.get(5)), oldest.stream().map(j -> j.id().toString()).toList());
        assertThrows(OjsException.class, () -> search.page(f, false, "bogus", null, 3).await().indefinitely());
    }

    private static List<String> ids(JobSearchService.JobPage p) {
        return p.jobs().stream().map(j -> j.id().toString()).toList();
    }

    @Test
    void summariesCarryTheLastError() {
        String id = JobsInState.retryable("sum", "x.y", "DbError", "deadlock detected");
        JobSummary s = search.page(text("deadlock"), false, null, null, 5).await().indefinitely().jobs().get(0);
        assertEquals(id, s.id().toString());
        assertEquals("DbError", s.errorType());
        assertTrue(s.errorMessage().contains("deadlock"));
    }
}
