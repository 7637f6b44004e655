package dev.steadfast.domain.retry;

import java.util.Optional;

/**
 * What happens to a job when its attempts are used up or it hits a non-retryable error
 * (OJS retry spec section 2.2, {@code on_exhaustion}; RET-17 requires both values).
 *
 * <p>Wire names are matched exactly (case-sensitive).
 */
public enum OnExhaustion {
    /** The job is discarded and not kept in the dead-letter set. The spec default. */
    DISCARD("discard"),
    /** The job is discarded and referenced from the dead-letter set for inspection and re-enqueue. */
    DEAD_LETTER("dead_letter");

    private final String wireName;

    OnExhaustion(String wireName) {
        this.wireName = wireName;
    }

    /** The JSON value for {@code on_exhaustion}. */
    public String wireName() {
        return wireName;
    }

    /** Exact, case-sensitive lookup by wire name; empty for null or unknown names. */
    public static Optional<OnExhaustion> fromWire(String wireName) {
        for (OnExhaustion o : values()) {
            if (o.wireName.equals(wireName)) {
                return Optional.of(o);
            }
        }
        return Optional.empty();
    }
}
