package dev.steadfast.maintenance;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** An interval under the scheduler's one-second resolution stops the start, naming the property. */
class MaintenanceIntervalsTest {

    static MaintenanceConfig maintenance(String shortOne) {
        return (MaintenanceConfig) Proxy.newProxyInstance(MaintenanceIntervalsTest.class.getClassLoader(),
                new Class<?>[] {MaintenanceConfig.class}, (p, m, a) -> m.getName().equals("staleAfterIntervals")
                        ? (Object) 10 : m.getName().equals(shortOne) ? Duration.ofMillis(500) : Duration.ofSeconds(1));
    }

    static CronTickConfig tick(Duration d) {
        return () -> d;
    }

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    @Test
    void aShortIntervalIsRefusedByName() {
        String why = assertThrows(IllegalArgumentException.class,
                () -> new MaintenanceHealth(CLOCK, maintenance("promoterInterval"), tick(Duration.ofSeconds(1))))
                .getMessage();
        assertTrue(why.contains("steadfast.maintenance.promoter-interval") && why.contains("PT0.5S"), why);
        why = assertThrows(IllegalArgumentException.class,
                () -> new MaintenanceHealth(CLOCK, maintenance("none"), tick(Duration.ofMillis(200)))).getMessage();
        assertTrue(why.contains("steadfast.cron.tick-interval"), why);
    }

    @Test
    void oneSecondIsEnough() {
        assertDoesNotThrow(() -> new MaintenanceHealth(CLOCK, maintenance("none"), tick(Duration.ofSeconds(1))));
    }
}
