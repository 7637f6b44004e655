package dev.steadfast.domain.unique;

import java.time.Instant;
import java.util.List;

/** What a PUSH with a unique policy does, decided by {@link UniqueDecider} without I/O. */
public sealed interface UniqueDecision {

    /** No job holds the key: insert the new one. */
    record Insert() implements UniqueDecision {
    }

    /** {@code reject}: refuse the new job (409 duplicate naming {@code holder}). */
    record Reject(UniqueHolder holder) implements UniqueDecision {
    }

    /** {@code ignore}: insert nothing and answer with {@code holder} (200, deduplicated). */
    record Ignore(UniqueHolder holder) implements UniqueDecision {
    }

    /**
     * {@code replace}: cancel {@code cancel} and insert the new job in the same transaction; with
     * {@code replace_except_schedule}, {@code keepRunAt} is the replaced scheduled job's due time, which the new
     * job takes over (null: the new job keeps its own schedule).
     */
    record Replace(List<UniqueHolder> cancel, Instant keepRunAt) implements UniqueDecision {
    }
}
