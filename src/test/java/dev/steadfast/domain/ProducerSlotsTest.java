package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Producers are limited to their slots only while workers are busy, and never when the limit is off. */
class ProducerSlotsTest {

    static final long MS = 1_000_000L;
    final ProducerSlots rule = new ProducerSlots(8, Duration.ofMillis(200));

    @Test
    void whileWorkersAreBusyProducersGetTheirSlotsAndNoMore() {
        long now = 10_000 * MS;
        long worker = now - 50 * MS;
        assertTrue(rule.admit(7, worker, now));
        assertFalse(rule.admit(8, worker, now));
        assertFalse(rule.admit(50, worker, now));
    }

    @Test
    void withoutWorkersProducersAreNotLimited() {
        long now = 10_000 * MS;
        assertTrue(rule.admit(50, Long.MIN_VALUE, now));           // no worker ever
        assertTrue(rule.admit(50, now - 200 * MS, now));           // the last one left the window
        assertFalse(rule.admit(50, now - 199 * MS, now));
    }

    @Test
    void zeroSlotsSwitchesTheLimitOff() {
        ProducerSlots off = new ProducerSlots(0, Duration.ofMillis(200));
        assertTrue(off.admit(1_000, 0, 1));
    }
}
