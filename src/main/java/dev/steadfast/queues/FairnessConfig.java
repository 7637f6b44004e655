package dev.steadfast.queues;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/**
 * Producers and workers share one server: while workers are busy, producers may not take more than a fixed
 * number of request slots, so a crowd of producers cannot starve the workers (docs/internals/testing.md).
 */
@ConfigMapping(prefix = "steadfast.fairness")
public interface FairnessConfig {

    /**
     * Most PUSH requests (single or batch) processed at once by this instance while worker requests (fetch,
     * ack, nack, heartbeat, snooze) arrived within the last {@code worker-window}; more wait their turn in
     * arrival order. 0 switches the limit off. Without worker requests there is no limit.
     */
    @WithDefault("8")
    @PositiveOrZero
    int producerSlots();

    /** How long after a worker request the producer limit still applies. */
    @WithDefault("PT0.2S")
    @DurationMin(millis = 0)
    Duration workerWindow();
}
