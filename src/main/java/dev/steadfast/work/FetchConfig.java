package dev.steadfast.work;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Min;
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

    /**
     * How far before where the last one ended a claim of a queue (domain ClaimCursors), a lease reap and the retry
     * promoter (domain SweepFloor) start reading their index: covers a job or lease written a little before one
     * already passed, by a transaction that committed late or an instance whose clock runs behind. Zero: exactly
     * there.
     */
    @WithDefault("PT1S")
    @DurationMin(millis = 0)
    Duration scanLookback();

    /**
     * How often a claim of a queue, a lease reap and the retry promoter read their index from the head rather than
     * from where the last one ended, per instance (domain ClaimCursors, SweepFloor): the longest a job that became
     * claimable, a lease that ended or a retry that came due behind where they start waits. After a slow read from
     * the head (a held vacuum horizon), the next waits {@link #fullScanCostShare} times as long as it took when that
     * is longer. Zero: always from the head.
     */
    @WithDefault("PT2S")
    @DurationMin(millis = 0)
    Duration fullScanInterval();

    /**
     * How many times as long as the last read from the head took the next one waits at least, when that is longer
     * than {@link #fullScanInterval} (domain ClaimCursors): 50 keeps reading from the head under 2% of a queue's time
     * on an instance when a held vacuum horizon makes it slow. Zero: every full-scan-interval whatever it costs (the
     * test profile, whose moved clocks must not depend on how fast the machine runs a statement).
     */
    @WithDefault("50")
    @Min(0)
    int fullScanCostShare();

    /**
     * How many attempts this instance handed out and that are not answered yet it remembers (HeldAttempts), so a
     * FAIL decides without reading the job first; beyond that the least useful are forgotten and their FAIL reads
     * the job (one more coalesced read, never a wrong answer).
     */
    @WithDefault("20000")
    @Positive
    int heldAttempts();
}
