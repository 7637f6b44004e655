package dev.steadfast.domain.limits;

import java.time.Instant;
import java.util.List;

/**
 * What a rate limit partition remembers between two claims: the start instants its sliding window still counts
 * (oldest first, at most {@code rate.limit} of them) and the last start, which the throttle spaces from.
 */
public record PartitionState(List<Instant> starts, Instant lastStart) {

    public static final PartitionState EMPTY = new PartitionState(List.of(), null);

    public PartitionState {
        starts = List.copyOf(starts);
    }
}
