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
import org.junit.jupiter.api.Test;

/**
 * Events another instance sends are listed like this instance's own, in time order even when they arrive late;
 * a payload that cannot be read is ignored; an instance that believes it is alone sends nothing until a newcomer
 * says hello, and then sends what it kept. (The exchange through PostgreSQL between two running instances is
 * exercised by the fault suite (the tools jar's faults), which reads one instance's events through another.)
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

    @Inject
    Instances instances;

    /**
     * An instance that believes it is alone sends nothing, but keeps its last events; a newcomer listens from its
     * start and then says hello (a payload without events), and the events made since it listened reach it. Here
     * the newcomer is a bare connection the test application does not know about, so the application believes it is
     * alone until the hello.
     */
    @Test
    void aLoneInstanceSendsNothingUntilANewcomerSaysHello() throws Exception {
        // another test's message from "elsewhere" counts as another instance until the next look (two seconds)
        long alone = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (instances.othersPresent() && System.nanoTime() < alone) {
            Thread.sleep(50);
        }
        assertTrue(!instances.othersPresent(), "the test application still counts another instance present");
        List<String> heard = new CopyOnWriteArrayList<>();
        PgConnection listener = sessions.connect(db.connectOptions())
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        try {
            listener.notificationHandler(n -> heard.add(n.getPayload()));
            listener.query("LISTEN steadfast_events").execute().toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            String subject = "before-hello-" + System.nanoTime();
            log.emit("job.enqueued", clock.instant(), subject, new EventData.Enqueued("t.x", "shared", subject, 0));
            // longer than a flush, and than the second a lone instance used to wait before sending anyway
            Thread.sleep(1500);
            assertTrue(heard.stream().noneMatch(p -> p.contains(subject)), "sent while alone: " + heard);

            listener.query("NOTIFY steadfast_events, '{\"o\":\"newcomer\",\"e\":[]}'").execute()
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (heard.stream().noneMatch(p -> p.contains(subject)) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(heard.stream().anyMatch(p -> p.contains(subject)), "not sent after the hello: " + heard);
        } finally {
            listener.close();
        }
    }

    @Test
    void anotherInstancesEventsAreListedInTimeOrder() {
        // Events an earlier test stamped at a later time of the test clock (a cron test moves it hours ahead) would
        // come first in the window and, younger than the settle time, end the poll before this test's events.
        log.clear();
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
