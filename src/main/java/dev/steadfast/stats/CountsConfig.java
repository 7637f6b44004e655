package dev.steadfast.stats;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/**
 * The {@code steadfast.console} setting that {@link DepthCounts} reads (the console depends on stats, not the
 * other way round); the console's other settings are in console.ConsoleConfig.
 */
@ConfigMapping(prefix = "steadfast.console")
interface CountsConfig {

    /**
     * How old the depth counts (jobs per queue and state, dead letters per queue) on the overview and queues
     * pages may be. Counting a million-row table takes a fraction of a second, so one count serves every
     * console request for this long, and is refreshed in the background after that; PT0S counts every time.
     */
    @WithDefault("PT5S")
    @DurationMin(millis = 0)
    Duration countsMaxAge();
}
