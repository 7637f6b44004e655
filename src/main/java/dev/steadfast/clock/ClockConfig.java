package dev.steadfast.clock;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/** Which clock the server reads for every time it stores or compares (leases, due times, retention). */
@ConfigMapping(prefix = "steadfast.clock")
public interface ClockConfig {

    /**
     * {@code database} (the default; {@code system} in dev): the machine's clock corrected by its
     * offset to PostgreSQL's {@code clock_timestamp()}, so every instance compares times on one clock;
     * {@code system}: the machine's clock as it is.
     */
    @WithDefault("database")
    ClockSource source();

    /** How often the offset to the database's clock is measured again (three round trips each time). */
    @WithDefault("PT30S")
    @DurationMin(millis = 1)
    Duration sampleInterval();
}
