package dev.steadfast.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.steadfast.domain.JobState;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JobsInState;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The overview's numbers: depth per queue and state, dead letters, lag, and finished jobs per minute. */
@QuarkusTest
class StatsServiceTest {

    @Inject
    StatsService stats;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void countsLagAndThroughput() {
        Api.enqueue("o.t", "ov-a");
        Api.enqueue("o.t", "ov-a");
        JobsInState.completed("ov-b", "o.t");
        JobsInState.completed("ov-b", "o.t");
        JobsInState.deadLetter("ov-b", "o.t", "E", "x");
        JobsInState.discarded("ov-b", "o.t", "E", "x");
        Overview o = stats.overview().await().indefinitely();
        QueueStats a = o.queues().stream().filter(q -> q.name().equals("ov-a")).findFirst().orElseThrow();
        QueueStats b = o.queues().stream().filter(q -> q.name().equals("ov-b")).findFirst().orElseThrow();
        assertEquals(2, a.count(JobState.AVAILABLE));
        assertNotNull(a.oldestAvailableAt());
        assertNull(b.oldestAvailableAt());
        assertEquals(2, b.count(JobState.COMPLETED));
        assertEquals(2, b.count(JobState.DISCARDED));
        assertEquals(1, b.deadLetters());
        assertEquals(1, o.deadLetters());
        assertEquals(StatsService.WINDOW_MINUTES, o.minutes().size());
        assertEquals(2, o.completedInWindow());
        assertEquals(2, o.failedInWindow());
        assertEquals(0.5, o.failureRate(), 1e-9);
    }
}
