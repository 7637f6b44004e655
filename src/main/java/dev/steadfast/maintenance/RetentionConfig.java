package dev.steadfast.maintenance;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import java.util.Optional;

/** How long finished jobs, dead letters and finished workflows are kept before the pruner deletes them. */
@ConfigMapping(prefix = "steadfast.retention")
public interface RetentionConfig {

    /** Completed, cancelled and (not dead-lettered) discarded jobs are deleted this long after they finished. */
    @WithDefault("P7D")
    @DurationMin(millis = 0)
    Duration finished();

    /**
     * Dead-lettered jobs are kept until an operator deletes them. Set a duration (e.g. P180D) to have them
     * deleted that long after they were dead-lettered; unset, they are never pruned.
     */
    Optional<Duration> deadLetter();

    /**
     * Finished workflows (completed, failed, cancelled) are deleted this long after they finished, with their
     * members' bookkeeping, once none of their jobs is still live; unset, the same as {@link #finished()}.
     * Their jobs are pruned by their own rules and keep their {@code workflow_id}.
     */
    Optional<Duration> workflows();
}
