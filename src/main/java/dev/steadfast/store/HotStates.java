package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The split of job states that keeps the hot path lean (V5__lean_hot_path.sql): a job is "hot" while it is
 * available or active, the two states PUSH, FETCH and ACK pass it through, and "cold" in every other state. The
 * console's search and sort indexes are partial on the cold states, so a hot transition never writes them; the
 * console reads hot jobs through the claim and lease indexes instead. {@link #COLD_SQL} is the exact predicate of
 * those indexes (HotStatesIndexTest compares it with the database).
 */
final class HotStates {

    private HotStates() {
    }

    static final Set<JobState> HOT = EnumSet.of(JobState.AVAILABLE, JobState.ACTIVE);

    static final Set<JobState> COLD = EnumSet.complementOf(EnumSet.copyOf(HOT));

    /** {@code state IN (<cold states>)}: the predicate of the console's partial indexes, in declaration order. */
    static final String COLD_SQL = "state IN (" + COLD.stream().map(s -> "'" + s.wire() + "'")
            .collect(Collectors.joining(", ")) + ")";

    /** {@code state IN ('available', 'active')}. */
    static final String HOT_SQL = "state IN (" + HOT.stream().map(s -> "'" + s.wire() + "'")
            .collect(Collectors.joining(", ")) + ")";
}
