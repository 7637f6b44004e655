package dev.steadfast.console.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SparklineTest {

    @Test
    void oneBarPerHourWithFailuresScaledToTheBusiestHour() {
        Sparkline s = Sparkline.of(List.of(0L, 4L, 0L, 1L));
        assertEquals(4 * (Sparkline.BAR + Sparkline.GAP) - Sparkline.GAP, s.width());
        assertEquals("M5 24v-24h4v24zM15 24v-6h4v6z", s.path());
        assertTrue(s.summary().startsWith("5 failed attempts in the last 4 hours, at most 4 in one hour"), s.summary());
    }

    @Test
    void anHourWithFewFailuresStillShowsAndAQuietDayDrawsNothing() {
        assertEquals("M0 24v-1h4v1zM5 24v-24h4v24z", Sparkline.of(List.of(1L, 1000L)).path());
        assertEquals("", Sparkline.of(List.of(0L, 0L, 0L)).path());
    }
}
