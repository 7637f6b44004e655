package dev.steadfast.tools.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class JobLedgerTest {

    @Test
    void aJobEnqueuedAndNeverCompletedIsLost() {
        JobLedger l = new JobLedger();
        l.enqueued(List.of("a", "b", "c"));
        l.delivered("a");
        l.delivered("b");
        assertEquals(1, l.completed("a"));
        assertEquals(2, l.completed("b"));
        assertEquals(1, l.lost());
        assertEquals(List.of("c"), l.waiting());
        assertEquals(2, l.completedCount());
    }

    @Test
    void deliveriesBeyondTheExpectedOnesAndStrangersAreDuplicates() {
        JobLedger l = new JobLedger();
        l.enqueued(List.of("a", "b"));
        assertEquals(1, l.delivered("a"));
        assertEquals(2, l.delivered("a"));
        assertEquals(1, l.delivered("b"));
        l.delivered("stranger"); // never enqueued by this run
        assertEquals(2, l.duplicates(1)); // a's second delivery, the stranger
        assertEquals(1, l.duplicates(2)); // fail-once runs expect two deliveries: the stranger only
        assertEquals(4, l.deliveries());
        assertEquals(1, l.redelivered());
    }

    @Test
    void aSecondAcceptedAckCountsAsCompletedTwice() {
        JobLedger l = new JobLedger();
        l.enqueued("a");
        assertEquals(1, l.completed("a"));
        assertEquals(0, l.completed("a"));
        assertEquals(1, l.completedCount());
        assertEquals(1, l.completedTwice());
    }

    @Test
    void completedAfterDeliveriesCountsJobsByTheirDeliveries() {
        JobLedger l = new JobLedger();
        l.enqueued(List.of("a", "b"));
        l.delivered("a");
        l.delivered("b");
        l.delivered("b");
        l.completed("a");
        l.completed("b");
        assertEquals(1, l.completedAfterDeliveries(1));
        assertEquals(1, l.completedAfterDeliveries(2));
    }

    @Test
    void aPruningLedgerForgetsCompletedJobsButCountsTheirLateDeliveries() {
        JobLedger l = new JobLedger(true);
        l.enqueued(List.of("a", "b"));
        l.delivered("a");
        l.completed("a");
        assertEquals(1, l.enqueuedCount()); // only b waits
        assertEquals(Integer.MAX_VALUE / 2, l.delivered("a"));
        assertEquals(1, l.duplicates(1));
        l.enqueued("a"); // its PUSH answer read after it was completed: not waiting
        assertEquals(List.of("b"), l.waiting());
    }
}
