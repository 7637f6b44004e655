package dev.steadfast.work;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/** FETCH: how much one fetch may ask for, how long it may wait, how it looks for work and expired leases. */
@ConfigMapping(prefix = "steadfast.fetch")
public interface FetchConfig {

    /** Largest count one fetch may ask for. */
    @WithDefault("1000")
    @Positive
    int maxCount();

    /**
     * Longest a long-poll FETCH ({@code wait_ms}) is held before it answers empty (ojs-security: a maximum poll
     * duration, 30 s by default). A larger wait_ms is cut to this.
     */
    @WithDefault("PT30S")
    @DurationMin(millis = 0)
    Duration maxWait();

    /**
     * How often a waiting FETCH looks for work on its own, in case a notification was lost (another instance's
     * retry coming due, a dropped listening connection).
     */
    @WithDefault("PT1S")
    @DurationMin(millis = 1)
    Duration pollInterval();

    /**
     * How often FETCH itself takes back expired leases, beside its claim (at most once per interval per
     * instance), so a job whose worker vanished is claimable again without waiting for the lease reaper's tick.
     */
    @WithDefault("PT0.1S")
    @DurationMin(millis = 0)
    Duration reapInterval();
}
