package dev.steadfast.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Events another instance sends are listed like this instance's own, in time order even when they arrive late;
 * a payload that cannot be read is ignored. (The exchange through PostgreSQL between two running instances is
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

    @Test
    void anotherInstancesEventsAreListedInTimeOrder() {
        Instant now = clock.instant();
        String queue = "shared-" + now.toEpochMilli();
        log.emit("job.enqueued", now, "local-job", "t.x", queue, Map.of());
        String ms = String.format("%012x", now.minusMillis(30).toEpochMilli()); // JobIds.next never goes back
        String earlier = "evt_" + ms.substring(0, 8) + "-" + ms.substring(8) + "-7000-8000-000000000001";
        sharing.received("{\"o\":\"elsewhere\",\"e\":[{\"id\":\"" + earlier + "\",\"type\":\"job.completed\","
                + "\"time\":\"" + now.minusMillis(30) + "\",\"subject\":\"remote-job\",\"queue\":\"" + queue + "\","
                + "\"job_type\":\"t.x\",\"data\":{\"job_type\":\"t.x\",\"queue\":\"" + queue + "\",\"attempt\":1}}]}");
        sharing.received("not json");
        sharing.received("{\"o\":\"elsewhere\",\"e\":\"not a list\"}");
        List<JobEvent> listed = log.list(null, Set.of(), Set.of(queue), Set.of(), 10).events();
        assertEquals(List.of("remote-job", "local-job"), listed.stream().map(JobEvent::subject).toList());
        assertEquals(1, listed.get(0).data().get("attempt"));
    }
}
