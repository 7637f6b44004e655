package dev.steadfast.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The budget of log lines a client can cause: a few per window, then a count of what was left out. */
class LogBudgetTest {

    @Test
    void theFirstLinesOfAWindowAreLoggedAndTheRestCounted() {
        LogBudget b = new LogBudget(3, 10_000);
        assertEquals(0, b.admit(1_000));
        assertEquals(0, b.admit(1_001));
        assertEquals(0, b.admit(1_002));
        for (int i = 0; i < 1000; i++) {
            assertEquals(LogBudget.SKIP, b.admit(1_003 + i));
        }
        assertEquals(LogBudget.SKIP, b.admit(10_999), "still the first window");
        assertEquals(1001, b.admit(11_000), "the next window's first line reports what was left out");
        assertEquals(0, b.admit(11_001));
    }

    @Test
    void aQuietPeriodStartsAFreshWindowAndNothingIsReportedTwice() {
        LogBudget b = new LogBudget(1, 1_000);
        assertEquals(0, b.admit(0));
        assertEquals(LogBudget.SKIP, b.admit(500));
        assertEquals(1, b.admit(60_000));
        assertEquals(LogBudget.SKIP, b.admit(60_001));
        assertEquals(1, b.admit(61_000));
        assertEquals(0, b.admit(70_000));
    }

    @Test
    void aClockThatStepsBackStartsANewWindow() {
        LogBudget b = new LogBudget(1, 1_000);
        assertEquals(0, b.admit(5_000));
        assertEquals(LogBudget.SKIP, b.admit(5_100));
        assertEquals(1, b.admit(4_000));
    }

    @Test
    void aBudgetNeedsALineAndAWindow() {
        assertThrows(IllegalArgumentException.class, () -> new LogBudget(0, 1_000));
        assertThrows(IllegalArgumentException.class, () -> new LogBudget(1, 0));
    }
}
