package dev.steadfast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.clock.ClockConfig;
import dev.steadfast.clock.ClockSource;
import dev.steadfast.cron.CronConfig;
import dev.steadfast.domain.cron.MissedOccurrences;
import dev.steadfast.domain.retry.MaxAttemptsRule;
import dev.steadfast.domain.schema.ValidationMode;
import dev.steadfast.jobs.RetryConfig;
import dev.steadfast.schemas.SchemaConfig;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The settings with a closed set of values are enums: every spelling accepted when they were strings still parses
 * (any case, surrounding blanks, {@code _} for {@code -}), the defaults are the documented ones, and anything else
 * stops the start with a message naming the property and the values it takes.
 */
class ClosedSetSettingsTest {

    static SmallRyeConfig config(Map<String, String> values) {
        return new SmallRyeConfigBuilder().withMapping(CronConfig.class).withMapping(ClockConfig.class)
                .withMapping(RetryConfig.class).withMapping(SchemaConfig.class)
                .withSources(new PropertiesConfigSource(values, "test", 100)).build();
    }

    @Test
    void theDefaultsAreTheDocumentedOnes() {
        SmallRyeConfig c = config(Map.of());
        assertEquals(MissedOccurrences.FIRE_ONCE, c.getConfigMapping(CronConfig.class).missed());
        assertEquals(ClockSource.DATABASE, c.getConfigMapping(ClockConfig.class).source());
        assertEquals(MaxAttemptsRule.Mode.CLAMP, c.getConfigMapping(RetryConfig.class).maxAttemptsOutOfRange());
        assertEquals(ValidationMode.WARN, c.getConfigMapping(SchemaConfig.class).validation());
    }

    @Test
    void missedOccurrencesTakeEverySpellingTheyTookAsAString() {
        for (String v : new String[] {"fire-once", "FIRE-ONCE", "Fire-Once", " fire-once ", "fire_once"}) {
            assertEquals(MissedOccurrences.FIRE_ONCE,
                    config(Map.of("steadfast.cron.missed", v)).getConfigMapping(CronConfig.class).missed(), v);
        }
        for (String v : new String[] {"skip", "SKIP", " Skip "}) {
            assertEquals(MissedOccurrences.SKIP,
                    config(Map.of("steadfast.cron.missed", v)).getConfigMapping(CronConfig.class).missed(), v);
        }
    }

    @Test
    void clockSourcesAndTheOtherClosedSetsParse() {
        assertEquals(ClockSource.SYSTEM,
                config(Map.of("steadfast.clock.source", "system")).getConfigMapping(ClockConfig.class).source());
        assertEquals(ClockSource.DATABASE,
                config(Map.of("steadfast.clock.source", "database")).getConfigMapping(ClockConfig.class).source());
        assertEquals(MaxAttemptsRule.Mode.REJECT, config(Map.of("steadfast.retry.max-attempts-out-of-range", "reject"))
                .getConfigMapping(RetryConfig.class).maxAttemptsOutOfRange());
        assertEquals(ValidationMode.STRICT, config(Map.of("steadfast.schemas.validation", "strict"))
                .getConfigMapping(SchemaConfig.class).validation());
    }

    @Test
    void anUnknownValueStopsTheStartNamingThePropertyAndItsValues() {
        for (Map.Entry<String, String> bad : Map.of("steadfast.cron.missed", "fireonce", "steadfast.clock.source",
                "ntp", "steadfast.retry.max-attempts-out-of-range", "ignore").entrySet()) {
            String why = assertThrows(RuntimeException.class, () -> config(Map.of(bad.getKey(), bad.getValue())))
                    .getMessage();
            assertTrue(why.contains(bad.getKey()) && why.contains(bad.getValue()), why);
        }
        String why = assertThrows(RuntimeException.class, () -> config(Map.of("steadfast.cron.missed", "never")))
                .getMessage();
        assertTrue(why.contains("fire-once") && why.contains("skip"), why);
    }
}
