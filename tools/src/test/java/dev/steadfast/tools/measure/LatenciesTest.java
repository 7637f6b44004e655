package dev.steadfast.tools.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LatenciesTest {

    @Test
    void percentilesAreNearestRankWithinATenthOfAPercent() {
        Latencies l = new Latencies();
        for (int ms = 100; ms >= 1; ms--) { // order does not matter
            l.record(ms * 1_000_000L);
        }
        assertEquals(100, l.count());
        assertEquals(50.0, l.percentileMs(0.50), 0.05);
        assertEquals(90.0, l.percentileMs(0.90), 0.09);
        assertEquals(99.0, l.percentileMs(0.99), 0.1);
        assertEquals(100.0, l.percentileMs(1.0), 0.1);
        assertEquals(1.0, l.percentileMs(0.0), 0.001);
        assertTrue(l.ms(0.50).matches("50\\.0\\dms"), l.ms(0.50));
    }

    @Test
    void aSmallSetRoundsTheRankUp() {
        Latencies l = new Latencies();
        l.record(10_000_000L);
        l.record(20_000_000L);
        l.record(30_000_000L);
        // nearest rank: ceil(0.5 * 3) = 2nd value
        assertEquals(20.0, l.percentileMs(0.50), 0.02);
        assertEquals(30.0, l.percentileMs(0.99), 0.03);
    }

    @Test
    void nothingRecordedIsNotANumber() {
        Latencies l = new Latencies();
        assertTrue(Double.isNaN(l.percentileMs(0.5)));
        assertEquals("n/a", l.ms(0.99));
    }
}
