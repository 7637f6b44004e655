package dev.steadfast.domain.retry;

import static dev.steadfast.domain.retry.RetryTestSupport.noJitter;
import static dev.steadfast.domain.retry.RetryTestSupport.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The example tables of spec sections 3, 5.3 and 12, plus schedules, jitter edges and overflow. */
class BackoffTest {

    @ParameterizedTest(name = "none: retry {0} -> {1}s")
    @DisplayName("spec 3.1 constant backoff, initial PT5S")
    @CsvSource({"1, 5", "2, 5", "3, 5", "4, 5"})
    void noneTable(int retry, long expectedSeconds) {
        RetryPolicy p = noJitter(BackoffStrategy.NONE, "PT5S", 3.0, "PT5M");
        assertEquals(Duration.ofSeconds(expectedSeconds), Backoff.rawDelay(p, retry));
        assertEquals(Duration.ofSeconds(expectedSeconds), Backoff.cappedDelay(p, retry));
    }

    @ParameterizedTest(name = "linear: retry {0} -> {1}s")
    @DisplayName("spec 3.2 linear backoff, initial PT5S")
    @CsvSource({"1, 5", "2, 10", "3, 15", "4, 20"})
    void linearTable(int retry, long expectedSeconds) {
        RetryPolicy p = noJitter(BackoffStrategy.LINEAR, "PT5S", 3.0, "PT5M");
        assertEquals(Duration.ofSeconds(expectedSeconds), Backoff.rawDelay(p, retry));
        assertEquals(Duration.ofSeconds(expectedSeconds), Backoff.cappedDelay(p, retry));
    }

    @ParameterizedTest(name = "exponential: retry {0} -> raw {1}s, capped {2}s")
    @DisplayName("spec 3.3 exponential backoff, initial PT1S, coefficient 2.0, max PT5M")
    @CsvSource({"1, 1, 1", "2, 2, 2", "3, 4, 4", "4, 8, 8", "5, 16, 16", "6, 32, 32", "7, 64, 64",
        "8, 128, 128", "9, 256, 256", "10, 512, 300"})
    void exponentialTable(int retry, long raw, long capped) {
        RetryPolicy p = noJitter(BackoffStrategy.EXPONENTIAL, "PT1S", 2.0, "PT5M");
        assertEquals(Duration.ofSeconds(raw), Backoff.rawDelay(p, retry));
        assertEquals(Duration.ofSeconds(capped), Backoff.cappedDelay(p, retry));
        assertEquals(Duration.ofSeconds(capped), Backoff.delay(p, retry, new RetryTestSupport.FixedRandom(0.9)));
    }

    @ParameterizedTest(name = "polynomial: retry {0} -> raw {1}s, capped {2}s")
    @DisplayName("spec 3.4 polynomial backoff, initial PT1S, coefficient 4.0, max PT5M")
    @CsvSource({"1, 1, 1", "2, 16, 16", "3, 81, 81", "4, 256, 256", "5, 625, 300"})
    void polynomialTable(int retry, long raw, long capped) {
        RetryPolicy p = noJitter(BackoffStrategy.POLYNOMIAL, "PT1S", 4.0, "PT5M");
        assertEquals(Duration.ofSeconds(raw), Backoff.rawDelay(p, retry));
        assertEquals(Duration.ofSeconds(capped), Backoff.cappedDelay(p, retry));
    }

    @ParameterizedTest(name = "12.3: retry {0} -> raw {1}s, capped {2}s")
    @DisplayName("spec 12.3 schedule (15s * n^4, cap PT1H) needs backoff_strategy=polynomial in Steadfast")
    @CsvSource({"1, 15, 15", "2, 240, 240", "3, 1215, 1215", "4, 3840, 3600", "5, 9375, 3600"})
    void aggressiveRetryExample(int retry, long raw, long capped) {
        RetryPolicy p = noJitter(BackoffStrategy.POLYNOMIAL, "PT15S", 4.0, "PT1H");
        assertEquals(Duration.ofSeconds(raw), Backoff.rawDelay(p, retry));
        assertEquals(Duration.ofSeconds(capped), Backoff.cappedDelay(p, retry));
    }

    @Test
    @DisplayName("spec 12.5 and 2.2: exponential with coefficient 1.0 is constant")
    void coefficientOneIsConstant() {
        RetryPolicy p = noJitter(BackoffStrategy.EXPONENTIAL, "PT10S", 1.0, "PT10S");
        for (int n = 1; n <= 60; n++) {
            assertEquals(Duration.ofSeconds(10), Backoff.delay(p, n, new RetryTestSupport.FixedRandom(0.3)));
        }
    }

    @ParameterizedTest(name = "5.3: retry {0} -> capped {1}s, range [{2}s, {3}s]")
    @DisplayName("spec 5.3 jitter table, initial PT10S, coefficient 2.0, max PT5M")
    @CsvSource({"1, 10, 5, 15", "2, 20, 10, 30", "3, 40, 20, 60", "4, 80, 40, 120", "5, 160, 80, 240",
        "6, 300, 150, 300"})
    void jitterRangeTable(int retry, long capped, long min, long max) {
        RetryPolicy p = RetryTestSupport.policy(BackoffStrategy.EXPONENTIAL, Duration.ofSeconds(10), 2.0,
                Duration.ofMinutes(5), true);
        assertEquals(Duration.ofSeconds(capped), Backoff.cappedDelay(p, retry));
        assertEquals(new DelayRange(Duration.ofSeconds(min), Duration.ofSeconds(max)), Backoff.range(p, retry));
    }

    @Test
    void jitterMultipliesTheCappedDelay() {
        RetryPolicy p = RetryTestSupport.policy(BackoffStrategy.NONE, Duration.ofSeconds(10), 2.0, Duration.ofMinutes(5), true);
        assertEquals(seconds(5), Backoff.delay(p, 1, new RetryTestSupport.FixedRandom(0.0)));
        assertEquals(seconds(10), Backoff.delay(p, 1, new RetryTestSupport.FixedRandom(0.5)));
        assertEquals(seconds(12.5), Backoff.delay(p, 1, new RetryTestSupport.FixedRandom(0.75)));
        assertTrue(Backoff.delay(p, 1, new RetryTestSupport.FixedRandom(Math.nextDown(1.0))).compareTo(seconds(15)) < 0);
    }

    @Test
    void jitterIsCappedAtMaxInterval() {
        RetryPolicy p = RetryTestSupport.policy(BackoffStrategy.NONE, Duration.ofSeconds(10), 2.0, Duration.ofSeconds(12), true);
        assertEquals(Duration.ofSeconds(12), Backoff.delay(p, 1, new RetryTestSupport.FixedRandom(0.9)));
        assertEquals(seconds(5), Backoff.delay(p, 1, new RetryTestSupport.FixedRandom(0.0)));
    }

    @Test
    void subSecondIntervalsAreExact() {
        RetryPolicy p = noJitter(BackoffStrategy.LINEAR, "PT0.5S", 2.0, "PT1M");
        assertEquals(Duration.ofMillis(1500), Backoff.cappedDelay(p, 3));
        assertEquals(Duration.ofNanos(1_000), Backoff.cappedDelay(noJitter(BackoffStrategy.NONE, "PT0.000001S", 2.0, "PT1S"), 7));
    }

    @Test
    @DisplayName("huge exponents saturate instead of overflowing, and the cap still holds")
    void overflowSaturates() {
        RetryPolicy exp = noJitter(BackoffStrategy.EXPONENTIAL, "PT1H", 10.0, "PT6H");
        assertEquals(Backoff.SATURATED, Backoff.rawDelay(exp, Integer.MAX_VALUE));
        assertEquals(Duration.ofHours(6), Backoff.cappedDelay(exp, Integer.MAX_VALUE));
        RetryPolicy poly = noJitter(BackoffStrategy.POLYNOMIAL, "P36500D", 1e300, "P36500D");
        assertEquals(Backoff.SATURATED, Backoff.rawDelay(poly, 2));
        assertEquals(Iso8601Duration.MAX, Backoff.cappedDelay(poly, 2));
        RetryPolicy jittered = RetryTestSupport.policy(BackoffStrategy.EXPONENTIAL, Iso8601Duration.MAX, 1e300,
                Iso8601Duration.MAX, true);
        assertEquals(Iso8601Duration.MAX, Backoff.delay(jittered, 1_000_000, new RetryTestSupport.FixedRandom(0.99)));
    }

    @Test
    void retryNumberIsOneIndexed() {
        assertThrows(IllegalArgumentException.class, () -> Backoff.rawDelay(RetryPolicy.DEFAULT, 0));
        assertThrows(IllegalArgumentException.class, () -> Backoff.range(RetryPolicy.DEFAULT, -1));
    }

    @Test
    @DisplayName("schedule lists attempts 2..max_attempts with capped delays and jitter ranges")
    void scheduleForTheDefaultPolicy() {
        List<ScheduleRow> rows = Backoff.schedule(RetryPolicy.DEFAULT);
        assertEquals(List.of(
                new ScheduleRow(2, 1, Duration.ofSeconds(1), new DelayRange(Duration.ofMillis(500), Duration.ofMillis(1500))),
                new ScheduleRow(3, 2, Duration.ofSeconds(2), new DelayRange(Duration.ofSeconds(1), Duration.ofSeconds(3)))),
                rows);
    }

    @Test
    void scheduleIsEmptyWithoutRetriesAndCappedAt25Rows() {
        assertEquals(List.of(), Backoff.schedule(RetryPolicy.DEFAULT.withMaxAttempts(0)));
        assertEquals(List.of(), Backoff.schedule(RetryPolicy.DEFAULT.withMaxAttempts(1)));
        List<ScheduleRow> rows = Backoff.schedule(RetryPolicy.DEFAULT.withMaxAttempts(Integer.MAX_VALUE));
        assertEquals(Backoff.MAX_SCHEDULE_ROWS, rows.size());
        assertEquals(26, rows.get(24).attempt());
        assertEquals(Duration.ofMinutes(5), rows.get(24).delay());
        assertEquals(new DelayRange(Duration.ofSeconds(150), Duration.ofMinutes(5)), rows.get(24).range());
    }
}
