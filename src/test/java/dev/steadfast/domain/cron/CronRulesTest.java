package dev.steadfast.domain.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.steadfast.domain.OjsException;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class CronRulesTest {

    @Test
    void ianaZonesAreAcceptedOffsetsAndAbbreviationsRefused() {
        assertEquals(ZoneId.of("Asia/Tokyo"), CronRules.checkTimezone("Asia/Tokyo"));
        assertEquals(ZoneId.of("UTC"), CronRules.checkTimezone("UTC"));
        for (String bad : new String[] {"+05:00", "UTC+5", "EST", "PST", "Mars/Olympus", "GMT+1", ""}) {
            OjsException e = assertThrows(OjsException.class, () -> CronRules.checkTimezone(bad), bad);
            assertEquals("timezone", e.details().get("field"));
        }
    }

    @Test
    void namesAndPolicies() {
        assertEquals("daily-report.v2", CronRules.checkName("daily-report.v2"));
        assertThrows(OjsException.class, () -> CronRules.checkName("Daily"));
        assertThrows(OjsException.class, () -> CronRules.checkName("-x"));
        assertThrows(OjsException.class, () -> CronRules.checkName("a".repeat(256)));
        assertEquals(OverlapPolicy.SKIP, CronRules.checkOverlap(null));
        assertEquals(OverlapPolicy.CANCEL_PREVIOUS, CronRules.checkOverlap("cancel_previous"));
        assertEquals(OverlapPolicy.ENQUEUE, CronRules.checkOverlap("enqueue"));
        assertThrows(OjsException.class, () -> CronRules.checkOverlap("queue"));
        assertThrows(OjsException.class, () -> CronRules.checkOverlap("ENQUEUE"));
    }
}
