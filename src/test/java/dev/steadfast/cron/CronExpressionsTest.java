package dev.steadfast.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.cron.FireTimes;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The cron-utils wrapper: syntax accepted and refused, time zones, daylight saving time. */
class CronExpressionsTest {

    static final ZoneId UTC = ZoneOffset.UTC;
    static final Instant SAT_NOON = Instant.parse("2026-03-07T12:00:00Z");

    static Instant next(String expression, ZoneId zone, Instant after) {
        return CronExpressions.parse("cron", expression, zone).nextAfter(after).orElseThrow();
    }

    @Test
    void standardFieldsNamesAndSpecialExpressions() {
        assertEquals(Instant.parse("2026-03-07T12:05:00Z"), next("*/5 * * * *", UTC, SAT_NOON));
        assertEquals(Instant.parse("2026-03-07T12:01:00Z"), next("* * * * *", UTC, SAT_NOON));
        assertEquals(Instant.parse("2026-03-09T09:00:00Z"), next("0 9 * * mon-fri", UTC, SAT_NOON));
        assertEquals(Instant.parse("2026-03-08T00:00:00Z"), next("0 0 * * 7", UTC, SAT_NOON), "7 is Sunday");
        assertEquals(Instant.parse("2026-03-08T00:00:00Z"), next("0 0 * * 0", UTC, SAT_NOON), "so is 0");
        assertEquals(Instant.parse("2027-01-01T00:00:00Z"), next("0 0 1 JAN *", UTC, SAT_NOON));
        assertEquals(Instant.parse("2026-03-07T13:00:00Z"), next("@hourly", UTC, SAT_NOON));
        assertEquals(Instant.parse("2026-03-08T00:00:00Z"), next("@daily", UTC, SAT_NOON));
        assertEquals(Instant.parse("2026-03-08T00:00:00Z"), next("@midnight", UTC, SAT_NOON));
        assertEquals(Instant.parse("2026-03-08T00:00:00Z"), next("@weekly", UTC, SAT_NOON), "Sunday midnight");
        assertEquals(Instant.parse("2026-04-01T00:00:00Z"), next("@monthly", UTC, SAT_NOON));
        assertEquals(Instant.parse("2027-01-01T00:00:00Z"), next("@yearly", UTC, SAT_NOON));
        assertEquals(Instant.parse("2027-01-01T00:00:00Z"), next("@annually", UTC, SAT_NOON));
        assertEquals(Instant.parse("2026-03-31T00:00:00Z"), next("0 0 L * *", UTC, SAT_NOON), "last day");
        assertEquals(Instant.parse("2026-03-16T00:00:00Z"), next("0 0 15W * *", UTC, SAT_NOON), "weekday nearest the 15th");
        assertEquals(Instant.parse("2026-03-20T00:00:00Z"), next("0 0 * * 5#3", UTC, SAT_NOON), "third Friday");
    }

    @Test
    void malformedOutOfRangeAndUnsupportedExpressionsAreRefusedNamingTheField() {
        for (String bad : new String[] {"not a valid cron", "0 0 0 0 0 0 0", "99 25 32 13 8", "*/0 * * * *", "",
            "5-1 * * * *", "0 0 * * * *", "@every 5m", "@often", "0 0 30 2 *"}) {
            OjsException e = assertThrows(OjsException.class, () -> CronExpressions.parse("cron", bad, UTC), bad);
            assertEquals(400, e.code().status(), bad);
            assertEquals("cron", e.details().get("field"), bad);
            assertTrue(!e.getMessage().isBlank(), bad);
        }
    }

    @Test
    void occurrencesFollowTheScheduleTimeZone() {
        Instant tokyo = next("0 9 * * *", ZoneId.of("Asia/Tokyo"), SAT_NOON);
        Instant newYork = next("0 9 * * *", ZoneId.of("America/New_York"), SAT_NOON);
        assertEquals(Instant.parse("2026-03-08T00:00:00Z"), tokyo, "9:00 JST is 0:00 UTC");
        assertEquals(Instant.parse("2026-03-07T14:00:00Z"), newYork, "9:00 EST, the same Saturday");
        Instant sunday = next("0 9 * * *", ZoneId.of("America/New_York"), newYork);
        assertEquals(Instant.parse("2026-03-08T13:00:00Z"), sunday, "9:00 EDT on the first day of DST");
        assertNotEquals(tokyo, newYork);
    }

    @Test
    void aTimeSkippedBySpringForwardDoesNotFireAndARepeatedOneFiresOnce() {
        ZoneId ny = ZoneId.of("America/New_York");
        FireTimes half2 = CronExpressions.parse("cron", "30 2 * * *", ny);
        // 2026-03-08 02:30 does not exist in New York: the next occurrence after Saturday is Monday's.
        assertEquals(Instant.parse("2026-03-09T06:30:00Z"), half2.nextAfter(SAT_NOON).orElseThrow());
        FireTimes half1 = CronExpressions.parse("cron", "30 1 * * *", ny);
        Instant first = half1.nextAfter(Instant.parse("2026-10-31T16:00:00Z")).orElseThrow();
        assertEquals(Instant.parse("2026-11-01T05:30:00Z"), first, "01:30 EDT, the first of the two");
        assertEquals(Instant.parse("2026-11-02T06:30:00Z"), half1.nextAfter(first).orElseThrow(), "not 01:30 EST too");
    }

    @Test
    void expressionsAreDescribedInWordsByTheLibrary() {
        assertEquals("every 15 minutes", CronExpressions.describe("cron", "*/15 * * * *"));
        assertEquals("at 09:00 every day between Monday and Friday", CronExpressions.describe("cron", "0 9 * * 1-5"));
        assertEquals("at 00:00", CronExpressions.describe("cron", "@daily"));
        assertEquals("at 00:00 last day of month", CronExpressions.describe("cron", "0 0 L * *"));
        dev.steadfast.domain.OjsException e = org.junit.jupiter.api.Assertions.assertThrows(
                dev.steadfast.domain.OjsException.class, () -> CronExpressions.describe("cron", "99 * * * *"));
        assertEquals(400, e.code().status());
    }
}
