package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class QueueBoundTest {

    @Test
    void admitsUpToTheBoundAndReportsPressurePastTheThreshold() {
        QueueBound b = new QueueBound(10, 0.5);
        assertNull(((QueueBound.Accept) b.admit(0, 1)).pressure());
        assertNull(((QueueBound.Accept) b.admit(3, 1)).pressure(), "0.4 is below the threshold");
        assertEquals(0.5, ((QueueBound.Accept) b.admit(4, 1)).pressure());
        assertEquals(1.0, ((QueueBound.Accept) b.admit(9, 1)).pressure());
        assertEquals(new QueueBound.Reject(10, 10), b.admit(10, 1));
        assertEquals(new QueueBound.Reject(8, 10), b.admit(8, 3), "a batch that does not fit is refused whole");
    }
}
