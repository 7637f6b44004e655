package dev.steadfast.maintenance;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/**
 * The {@code steadfast.workers} setting that the pruner reads beside the work package (which depends on
 * maintenance, not the other way round); the other worker settings are in work.WorkersConfig.
 */
@ConfigMapping(prefix = "steadfast.workers")
public interface WorkerTimeoutConfig {

    /** A worker not heard from (fetch or heartbeat) for this long is shown as stale and later forgotten. */
    @WithDefault("PT30S")
    @DurationMin(millis = 1)
    Duration heartbeatTimeout();
}
