package dev.steadfast.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.pgclient.PgConnection;
import dev.steadfast.store.SessionConnections;
import dev.steadfast.testsupport.DatasourceSettings;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Events another instance sends are listed like this instance's own, in time order even when they arrive late;
 * a payload that cannot be read is ignored; an instance sends nothing until another asks for its events, and then
 * sends what it kept; an instance where someone reads events asks the others, and stops when nobody does. (The
 * exchange through PostgreSQL between two running instances is exercised by the fault suite (the tools jar's
 * faults), which reads one instance's events through another.)
 */
@QuarkusTest
class EventSharingTest {

    @Inject
    TestClock clock;

    @Inject
    EventSharing sharing;

    @Inject
    EventLog log;

    @Inject
    SessionConnections sessions;

    @Inject
    DatasourceSettings db;

    /**
     * Another instance that only listens, or says hello as versions before the requests did, gets nothing; once it
     * asks, it gets the events kept from the last seconds and the new ones, until its request runs out. Here that
     * instance is a bare connection the test application does not know about.
     */
    @Test
    void anInstanceSendsNothingUntilAnotherAsksForEvents() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        PgConnection other = listener(heard);
        try {
            String kept = emit("before-request-");
            Thread.sleep(15 * EventSharing.FLUSH_MS); // many flushes' time
            notify(other, "{\"o\":\"newcomer\",\"e\":[]}");
            Thread.sleep(15 * EventSharing.FLUSH_MS);
            assertTrue(heard.stream().noneMatch(p -> p.contains(kept)), "sent unasked: " + heard);

            notify(other, "{\"o\":\"newcomer\",\"w\":true,\"e\":[]}");
            awaitHeard(heard, kept, "the event kept before the request");
            awaitHeard(heard, emit("after-request-"), "an event made while asked");

            Thread.sleep(EventSharing.ASKED_FOR + 500);
            String late = emit("request-over-");
            Thread.sleep(15 * EventSharing.FLUSH_MS);
            assertTrue(heard.stream().noneMatch(p -> p.contains(late)), "sent after the request ran out: " + heard);
        } finally {
            other.close();
        }
    }

    /** A poll or a live subscriber makes this instance ask the others for their events; nobody reading, it stops. */
    @Test
    void anInstanceAsksForTheOthersEventsOnlyWhileSomeoneReadsThem() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        PgConnection other = listener(heard);
        try {
            log.clear(); // forgets earlier tests' polls: the asking stops at its next turn
            Thread.sleep(EventSharing.ASK_MS + 300);
            heard.clear();
            Thread.sleep(EventSharing.ASK_MS + 300);
            assertTrue(heard.stream().noneMatch(EventSharingTest::request), "asked while nobody reads: " + heard);

            log.list(null, Set.of(), Set.of(), Set.of(), 1);
            awaitRequest(heard, "after a poll");

            Consumer<JobEvent> sink = e -> { };
            log.subscribe(sink);
            log.clear(); // the poll forgotten, the subscriber still reads
            heard.clear();
            awaitRequest(heard, "while a subscriber reads");

            log.unsubscribe(sink);
            Thread.sleep(EventSharing.ASK_MS + 300);
            heard.clear();
            Thread.sleep(EventSharing.ASK_MS + 300);
            assertTrue(heard.stream().noneMatch(EventSharingTest::request), "asked after the reader left: " + heard);
        } finally {
            other.close();
        }
    }

    private PgConnection listener(List<String> heard) throws Exception {
        PgConnection c = sessions.connect(db.connectOptions()).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        c.notificationHandler(n -> heard.add(n.getPayload()));
        c.query("LISTEN steadfast_events").execute().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return c;
    }

    private static void notify(PgConnection c, String payload) throws Exception {
        c.query("NOTIFY steadfast_events, '" + payload + "'").execute().toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    private String emit(String prefix) {
        String subject = prefix + System.nanoTime();
        log.emit("job.enqueued", clock.instant(), subject, new EventData.Enqueued("t.x", "shared", subject, 0));
        return subject;
    }

    private static boolean request(String payload) {
        return payload.contains("\"w\":true");
    }

    private static void awaitHeard(List<String> heard, String subject, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (heard.stream().noneMatch(p -> p.contains(subject)) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(heard.stream().anyMatch(p -> p.contains(subject)), what + " was not sent: " + heard);
    }

    private static void awaitRequest(List<String> heard, String when) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (heard.stream().noneMatch(EventSharingTest::request) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(heard.stream().anyMatch(EventSharingTest::request), "no request " + when + ": " + heard);
    }

    @Test
    void anotherInstancesEventsAreListedInTimeOrder() {
        // Events an earlier test stamped at a later time of the test clock (a cron test moves it hours ahead) would
        // come first in the window and, younger than the settle time, end the poll before this test's events.
        log.clear();
        log.list(null, Set.of(), Set.of(), Set.of(), 1); // someone reads events here: the others' are taken in
        Instant now = clock.instant();
        String queue = "shared-" + now.toEpochMilli();
        log.emit("job.enqueued", now, "local-job", new EventData.Enqueued("t.x", queue, "local-job", 0));
        String ms = String.format("%012x", now.minusMillis(30).toEpochMilli()); // JobIds.next never goes back
        String earlier = "evt_" + ms.substring(0, 8) + "-" + ms.substring(8) + "-7000-8000-000000000001";
        sharing.received("{\"o\":\"elsewhere\",\"e\":[{\"id\":\"" + earlier + "\",\"type\":\"job.completed\","
                + "\"time\":\"" + now.minusMillis(30) + "\",\"subject\":\"remote-job\",\"queue\":\"" + queue + "\","
                + "\"job_type\":\"t.x\",\"data\":{\"job_type\":\"t.x\",\"queue\":\"" + queue + "\",\"attempt\":1}}]}");
        sharing.received("not json");
        sharing.received("{\"o\":\"elsewhere\",\"e\":\"not a list\"}");
        // The message from "elsewhere" makes this instance count another one present, and then a poll holds back
        // every event younger than EventLog.SETTLE (250 ms), this test's and any other test's, that could still be
        // on its way: a second later all of them have settled.
        clock.advance(Duration.ofSeconds(1));
        List<JobEvent> listed = log.list(null, Set.of(), Set.of(queue), Set.of(), 10).events();
        assertEquals(List.of("remote-job", "local-job"), listed.stream().map(JobEvent::subject).toList());
        assertEquals(1, ((Map<?, ?>) listed.get(0).data()).get("attempt")); // as it arrived: a map
    }
}
