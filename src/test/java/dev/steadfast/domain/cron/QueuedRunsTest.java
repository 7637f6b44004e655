package dev.steadfast.domain.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The enqueue policy's queue as a truth table: which run states hold the next occurrence back, when to warn. */
class QueuedRunsTest {

    @Test
    void aHeldOccurrenceStartsOnlyOnceTheRunBeforeItHasFinished() {
        for (String running : List.of("available", "scheduled", "pending", "active", "retryable")) {
            assertTrue(QueuedRuns.unfinished(running), running);
            assertFalse(QueuedRuns.mayRelease(running), running + " holds the next run back");
        }
        for (String finished : List.of("completed", "cancelled", "discarded")) {
            assertFalse(QueuedRuns.unfinished(finished), finished);
            assertTrue(QueuedRuns.mayRelease(finished), finished + " lets the next run start");
        }
        assertTrue(QueuedRuns.mayRelease(null), "a run whose job is gone (pruned) has finished");
    }

    @Test
    void moreThanTwoQueuedOccurrencesWarn() {
        assertFalse(QueuedRuns.warns(0));
        assertFalse(QueuedRuns.warns(2));
        assertTrue(QueuedRuns.warns(3));
        assertEquals(2, QueuedRuns.WARN_ABOVE);
        assertTrue(QueuedRuns.warning("nightly", 3).contains("'nightly'"));
        assertTrue(QueuedRuns.warning("nightly", 3).contains("3 occurrences queued"));
    }
}
