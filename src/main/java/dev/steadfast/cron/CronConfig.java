package dev.steadfast.cron;

import dev.steadfast.domain.cron.MissedOccurrences;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/**
 * Cron schedules (ojs-cron.md): missed occurrences and the runs' lease. How often the firer looks for due
 * occurrences ({@code steadfast.cron.tick-interval}) is in maintenance.CronTickConfig, beside the other tasks'
 * intervals.
 */
@ConfigMapping(prefix = "steadfast.cron")
public interface CronConfig {

    /**
     * An occurrence found later than this after its time counts as missed (the server was down or the
     * database unreachable); see {@link #missed()}.
     */
    @WithDefault("PT1M")
    @DurationMin(millis = 0)
    Duration misfireGrace();

    /**
     * What a missed occurrence does: {@code fire-once} enqueues one catch-up run for the earliest missed
     * occurrence (ojs-cron.md 7.3), {@code skip} enqueues nothing; both then move on to the next occurrence
     * after now.
     */
    @WithDefault("fire-once")
    MissedOccurrences missed();

    /**
     * The lease of a run whose template sets no visibility_timeout_ms: scheduled runs are often long, and the
     * overlap policy treats a run as running until it finishes, so a lease that ran out after the jobs'
     * default 30 s would hand the same run to a second worker while it still runs.
     */
    @WithDefault("PT10M")
    @DurationMin(millis = 1)
    Duration defaultVisibilityTimeout();
}
