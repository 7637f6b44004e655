package dev.steadfast.work;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobState;
import dev.steadfast.events.EventData;
import dev.steadfast.events.EventLog;
import dev.steadfast.events.JobEvent;
import dev.steadfast.maintenance.MaintenanceHealth;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.JobStore;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Expiry at fetch (ojs-core 5.2): a plain claim discards the expired jobs of its queues in its own statement, with
 * the error entry and event the expiry reaper produces, and INFO never answers an expired job as waiting. The claims
 * run at an instant past the deadlines while the server's clock (which the reaper reads) stays before them, so only
 * the claim can have discarded what it reports.
 */
@QuarkusTest
class ExpiryAtClaimTest {

    @Inject
    JobStore store;

    @Inject
    ExpiredJobs expired;

    @Inject
    EventLog events;

    @Inject
    TestClock clock;

    @Inject
    Scheduler scheduler;

    @Inject
    ObjectMapper json;

    @Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private String push(String queue, Object expiresAt) {
        return enqueue(obj("type", "e.t", "args", arr(), "options", expiresAt == null ? obj("queue", queue)
                : obj("queue", queue, "expires_at", expiresAt)));
    }

    /** The finished job's state, discarded_at, error and error history, read from the history. */
    private io.vertx.mutiny.sqlclient.Row finished(String id) {
        return pool.preparedQuery("SELECT state, discarded_at, completed_at, error::text AS error, errors::text AS errors"
                + " FROM job_history WHERE id = $1").execute(io.vertx.mutiny.sqlclient.Tuple.of(UUID.fromString(id)))
                .await().indefinitely().iterator().next();
    }

    @Test
    void theClaimDiscardsWhatItPassesOverWithTheReapersEntryAndEvent() throws Exception {
        Instant deadline = clock.instant().plus(Duration.ofHours(1)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        String gone = push("eac-one", deadline.toString());
        String atDeadline = push("eac-one", deadline.plusMillis(5).toString());
        String later = push("eac-one", deadline.plusMillis(6).toString());
        String plain = push("eac-one", null);
        Instant now = deadline.plusMillis(5); // atDeadline's deadline is now: it expires; later's is a millisecond after

        JobStore.Claimed c = store.claim(List.of("eac-one"), 10, "w", null, now).await().indefinitely();

        assertEquals(Set.of(later, plain), Set.copyOf(c.started().stream().map(j -> j.id().toString()).toList()));
        assertEquals(Set.of(gone, atDeadline), Set.copyOf(c.expired().stream().map(j -> j.id().toString()).toList()));
        JobRow was = null;
        for (JobRow r : c.expired()) {
            assertEquals(JobState.DISCARDED, r.state());
            if (r.id().toString().equals(gone)) {
                was = r;
            }
        }
        io.vertx.mutiny.sqlclient.Row after = finished(gone);
        assertEquals("discarded", after.getString("state"));
        assertEquals(now, after.getOffsetDateTime("discarded_at").toInstant());
        assertNull(after.getValue("completed_at"));
        // the entry the reaper writes for the job as it was: available, in its first run, never attempted
        assertEquals(1, was.run());
        assertEquals(0, was.attempt());
        JsonNode expected = json.readTree(expired.entry(was.run(), was.attempt(), was.expiresAt(), JobState.AVAILABLE, now));
        assertEquals(expected, json.readTree(after.getString("error")), "the reaper's entry");
        JsonNode history = json.readTree(after.getString("errors"));
        assertEquals(expected, history.get(history.size() - 1), "appended to the history");
        assertEquals("expired", expected.get("code").asText());
    }

    @Test
    void everyPlainClaimFormDiscardsAndAnnounces() {
        Instant deadline = clock.instant().plus(Duration.ofHours(1));
        Instant now = deadline.plusSeconds(1);
        String a = push("eac-a", deadline.toString());
        String b = push("eac-b", deadline.toString());
        String keep = push("eac-b", null);
        // two queues: the multi-queue claim
        JobStore.Claimed two = store.claim(List.of("eac-a", "eac-b"), 5, "w", null, now).await().indefinitely();
        assertEquals(List.of(keep), two.started().stream().map(j -> j.id().toString()).toList());
        assertEquals(Set.of(a, b), Set.copyOf(two.expired().stream().map(j -> j.id().toString()).toList()));
        // one queue again, now with a cursor where the last claim ended (the claim from a cursor)
        String c = push("eac-b", deadline.toString());
        String d = push("eac-b", null);
        JobStore.Claimed one = store.claim(List.of("eac-b"), 5, "w", null, now).await().indefinitely();
        assertEquals(List.of(d), one.started().stream().map(j -> j.id().toString()).toList());
        assertEquals(List.of(c), one.expired().stream().map(j -> j.id().toString()).toList());
    }

    @Test
    void aFetchAnnouncesTheJobsItsClaimDiscarded() {
        String gone = push("eac-fetch", clock.instant().plusSeconds(30).toString());
        scheduler.pause(MaintenanceHealth.EXPIRY_REAPER);
        try {
            clock.advance(Duration.ofMinutes(1));
            assertEquals(List.of(), Api.fetchIds("w", 5, "eac-fetch"));
            assertEquals("discarded", jobView(gone).get("state"));
            List<JobEvent> seen = events.list(null, Set.of("job.discarded"), Set.of("eac-fetch"), Set.of(), 10).events();
            assertEquals(List.of(gone), seen.stream().map(JobEvent::subject).toList());
            assertEquals("expired", ((EventData.Expired) seen.get(0).data()).reason());
        } finally {
            scheduler.resume(MaintenanceHealth.EXPIRY_REAPER);
        }
    }

    @Test
    void infoDiscardsAnExpiredJobItReadsInsteadOfAnsweringItWaiting() {
        String gone = push("eac-info", clock.instant().plusSeconds(30).toString());
        String pending = enqueue(obj("type", "e.t", "args", arr(), "options", obj("queue", "eac-info", "pending", true,
                "expires_at", clock.instant().plusSeconds(30).toString())));
        scheduler.pause(MaintenanceHealth.EXPIRY_REAPER);
        try {
            assertEquals("available", jobView(gone).get("state"));
            clock.advance(Duration.ofMinutes(1));
            for (String id : List.of(gone, pending)) {
                Map<String, Object> v = jobView(id);
                assertEquals("discarded", v.get("state"), id);
                @SuppressWarnings("unchecked")
                Map<String, Object> error = (Map<String, Object>) v.get("error");
                assertEquals("expired", error.get("code"));
                assertTrue(v.get("discarded_at") != null);
            }
            List<JobEvent> seen = events.list(null, Set.of("job.discarded"), Set.of("eac-info"), Set.of(), 10).events();
            assertEquals(Set.of(gone, pending), Set.copyOf(seen.stream().map(JobEvent::subject).toList()));
        } finally {
            scheduler.resume(MaintenanceHealth.EXPIRY_REAPER);
        }
    }
}
