package dev.steadfast.maintenance;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The cron firer's interval, a maintenance task's interval that {@link MaintenanceHealth} checks and watches like
 * the others; the firer's {@code @Scheduled} reads it by name. Cron's other settings are in cron.CronConfig (the
 * cron package depends on maintenance, not the other way round).
 */
@ConfigMapping(prefix = "steadfast.cron")
interface CronTickConfig {

    /**
     * How often due occurrences are looked for (Quarkus scheduler; at least 1s, its resolution, which is also
     * ojs-cron.md 7.3's limit). An occurrence is enqueued within about this long after its time.
     */
    @WithDefault("1s")
    Duration tickInterval();
}
