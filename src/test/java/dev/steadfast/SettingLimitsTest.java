package dev.steadfast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.coalescing.BatchingConfig;
import dev.steadfast.console.ConsoleConfig;
import dev.steadfast.http.AuthConfig;
import dev.steadfast.jobs.JobsConfig;
import dev.steadfast.maintenance.MaintenanceConfig;
import dev.steadfast.queues.FairnessConfig;
import dev.steadfast.work.FetchConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.ConfigValidationException;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.validator.BeanValidationConfigValidator;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.time.Duration;
import java.util.Map;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.junit.jupiter.api.Test;

/**
 * The numeric and text settings carry Bean Validation constraints on their {@code @ConfigMapping} interfaces, which
 * SmallRye Config checks at start-up: an out-of-range value stops the start with a message naming the property,
 * and the defaults (every mapping at once, as the server builds them) pass.
 */
class SettingLimitsTest {

    static final Validator VALIDATOR = Validation.byDefaultProvider().configure()
            .messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory().getValidator();

    static SmallRyeConfig config(Map<String, String> values) throws Exception {
        SmallRyeConfigBuilder b = new SmallRyeConfigBuilder()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withValidator((BeanValidationConfigValidator) () -> VALIDATOR)
                .withSources(new PropertiesConfigSource(values, "test", 100));
        for (Class<?> mapping : ConfigurationReferenceTest.mappings()) {
            b.withMapping(mapping);
        }
        return b.build();
    }

    static String refusal(String property, String value) {
        return assertThrows(ConfigValidationException.class, () -> config(Map.of(property, value))).getMessage();
    }

    @Test
    void theDefaultsPass() throws Exception {
        SmallRyeConfig c = config(Map.of());
        assertEquals(1000, c.getConfigMapping(JobsConfig.class).maxBatch());
        assertEquals(500, c.getConfigMapping(MaintenanceConfig.class).batchSize());
        assertEquals(10, c.getConfigMapping(AuthConfig.class).failureLog().lines());
    }

    @Test
    void anOutOfRangeValueStopsTheStartNamingTheProperty() {
        for (Map.Entry<String, String> bad : Map.of("steadfast.jobs.max-batch", "0",
                "steadfast.fetch.max-count", "-5",
                "steadfast.maintenance.batch-size", "0",
                "steadfast.batching.max-in-flight", "0",
                "steadfast.fairness.producer-slots", "-1",
                "steadfast.http.max-body-bytes", "0",
                "steadfast.auth.failure-log.lines", "0",
                "steadfast.console.username", " ").entrySet()) {
            String why = refusal(bad.getKey(), bad.getValue());
            assertTrue(why.contains(bad.getKey()), why);
        }
    }

    @Test
    void aNegativeOrZeroDurationWhereItMakesNoSenseStopsTheStart() {
        for (Map.Entry<String, String> bad : Map.of("steadfast.fetch.poll-interval", "PT0S",
                "steadfast.fetch.max-wait", "-PT1S",
                "steadfast.jobs.default-visibility-timeout", "PT0S",
                "steadfast.jobs.max-timeout", "-PT1H",
                "steadfast.batching.linger", "-PT0.001S",
                "steadfast.retention.finished", "-P1D",
                "steadfast.clock.sample-interval", "PT0S",
                "steadfast.maintenance.run-timeout", "PT0S").entrySet()) {
            String why = refusal(bad.getKey(), bad.getValue());
            assertTrue(why.contains(bad.getKey()), why);
        }
    }

    @Test
    void theLowestSensibleValuesPass() throws Exception {
        SmallRyeConfig c = config(Map.of("steadfast.jobs.max-batch", "1", "steadfast.fairness.producer-slots", "0",
                "steadfast.errors.backtrace-max-frames", "0", "steadfast.retry.max-attempts-min", "0",
                "steadfast.batching.linger", "PT0S", "steadfast.fetch.reap-interval", "PT0S",
                "steadfast.retention.finished", "PT0S", "steadfast.fetch.poll-interval", "PT0.001S"));
        assertEquals(1, c.getConfigMapping(JobsConfig.class).maxBatch());
        assertEquals(0, c.getConfigMapping(FairnessConfig.class).producerSlots());
        assertEquals(1000, c.getConfigMapping(FetchConfig.class).maxCount());
        assertEquals(1, c.getConfigMapping(BatchingConfig.class).maxInFlight());
        assertEquals("admin", c.getConfigMapping(ConsoleConfig.class).username());
        assertEquals(Duration.ZERO, c.getConfigMapping(FetchConfig.class).reapInterval());
    }
}
