package dev.steadfast.maintenance;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/**
 * The maintenance tasks run on the Quarkus scheduler ({@code @Scheduled}, one run of a task at a time per
 * instance). Intervals are durations of at least one second ({@code 1s}, {@code PT1S}, {@code 60s}).
 */
@ConfigMapping(prefix = "steadfast.maintenance")
public interface MaintenanceConfig {

    /** How often expired leases are looked for (each run is one indexed query when nothing expired). */
    @WithDefault("1s")
    Duration leaseReaperInterval();

    /** How often due scheduled and retryable jobs are made available (fetch claims due jobs itself). */
    @WithDefault("1s")
    Duration promoterInterval();

    /** How often finished jobs past retention are deleted. */
    @WithDefault("60s")
    Duration prunerInterval();

    /** How often jobs whose expires_at passed are discarded (FETCH also does it; at least {@code 1s}). */
    @WithDefault("1s")
    Duration expiryInterval();

    /**
     * How often workflows are advanced for member jobs that finished outside a worker's ACK/FAIL (lease
     * reaper, expiry, a single job's cancel, operators); at least {@code 1s}.
     */
    @WithDefault("1s")
    Duration workflowInterval();

    /**
     * How often the live job table's row count is compared with its statistics, which are refreshed (ANALYZE) after
     * a burst of jobs so the cached plans of FETCH and ACK fit the table again (maintenance.TableStatistics).
     */
    @WithDefault("1s")
    @DurationMin(seconds = 1)
    Duration statisticsInterval();

    /** Longest a run may take before it is abandoned and reported (one log line; the next run is on time). */
    @WithDefault("30s")
    @DurationMin(millis = 1)
    Duration runTimeout();

    /** Readiness is DOWN when a task has not succeeded for this many of its intervals. */
    @WithDefault("10")
    @Positive
    int staleAfterIntervals();

    /** Rows one maintenance statement handles; a task loops until a batch comes back short. */
    @WithDefault("500")
    @Positive
    int batchSize();
}
