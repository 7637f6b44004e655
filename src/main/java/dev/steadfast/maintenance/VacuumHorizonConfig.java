package dev.steadfast.maintenance;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Watching the xmin horizon ({@link VacuumHorizon}): how often it is read, and from what age a transaction holding
 * it back is reported (a WARN line and a {@code warning} in the readiness details). Durations: {@code 15s},
 * {@code PT5M}.
 */
@ConfigMapping(prefix = "steadfast.vacuum-horizon")
interface VacuumHorizonConfig {

    /** How often each instance reads the horizon (one query of PostgreSQL's statistics views). */
    @WithDefault("15s")
    Duration sampleInterval();

    /** A transaction open (or a snapshot held) longer than this is reported. */
    @WithDefault("300s")
    Duration warnAfter();

    /** While the horizon stays too old, the WARN line is repeated at most this often per instance. */
    @WithDefault("5m")
    Duration logEvery();
}
