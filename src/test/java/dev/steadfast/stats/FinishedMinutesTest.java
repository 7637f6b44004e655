package dev.steadfast.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.store.maintenance.StatsStore.Minute;
import java.util.List;
import org.junit.jupiter.api.Test;

class FinishedMinutesTest {

    private static Minute m(long minute, long completed) {
        return new Minute(minute, completed, 0);
    }

    @Test
    void settledMinutesAreCountedOnceAndTheNewestEveryTime() {
        FinishedMinutes f = new FinishedMinutes();
        assertEquals(41, f.countFrom(41, 100), "nothing remembered: the whole window");
        List<Minute> first = f.window(41, 100, 41, List.of(m(50, 5), m(97, 2), m(98, 3), m(100, 1)));
        assertEquals(List.of(m(50, 5), m(97, 2), m(98, 3), m(100, 1)), first);
        assertEquals(99, f.countFrom(41, 100), "minutes up to 98 (now - 2) are remembered");

        // a minute later: 99 and 100 counted again (100 grew), 101 is new; 98 is not read again
        List<Minute> second = f.window(42, 101, 99, List.of(m(99, 4), m(100, 6), m(101, 1)));
        assertEquals(List.of(m(50, 5), m(97, 2), m(98, 3), m(99, 4), m(100, 6), m(101, 1)), second);
        assertEquals(100, f.countFrom(42, 101));

        // an hour on, the remembered minutes have left the window
        assertEquals(111, f.countFrom(111, 170));
        assertEquals(List.of(m(170, 7)), f.window(111, 170, 111, List.of(m(170, 7))));
    }

    @Test
    void aCountThatStartedBeforeAnotherRememberedMoreIsNotLost() {
        FinishedMinutes f = new FinishedMinutes();
        long from = f.countFrom(1, 60);
        f.window(1, 60, 1, List.of(m(10, 1)));
        // a second overview that began before the first one's answer counted from 1 too
        assertEquals(List.of(m(10, 1), m(59, 2)), f.window(1, 60, from, List.of(m(10, 1), m(59, 2))));
        f.forget();
        assertEquals(1, f.countFrom(1, 60), "after a reset nothing is remembered");
        assertEquals(List.of(), f.window(1, 60, 1, List.of()));
    }

    /**
     * An overview computed with a clock ahead (a test's clock moved on, then back) remembered minutes that are not
     * settled at the real time: the next overview forgets them and counts its window whole, so a job finished now is
     * not hidden behind a remembered empty minute.
     */
    @Test
    void aClockThatMovedBackForgetsTheMinutesRememberedAhead() {
        FinishedMinutes f = new FinishedMinutes();
        f.window(1, 160, f.countFrom(1, 160), List.of());
        assertEquals(159, f.countFrom(101, 160));
        assertEquals(41, f.countFrom(41, 100), "minutes up to 158 were remembered as empty; now is 100");
        assertEquals(List.of(m(100, 1)), f.window(41, 100, 41, List.of(m(100, 1))));
    }
}
