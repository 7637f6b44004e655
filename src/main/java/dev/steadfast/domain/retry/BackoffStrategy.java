package dev.steadfast.domain.retry;

import java.util.Optional;

/**
 * How the delay between retries grows (OJS retry spec section 3 and Appendix A).
 *
 * <p>OJS does not put the strategy on the wire; it says the strategy is "inferred" and defaults to
 * exponential. Steadfast never infers it from {@code backoff_coefficient}: the strategy is
 * {@link #EXPONENTIAL} unless the documented extension field {@code backoff_strategy} names
 * another one. With {@code EXPONENTIAL} and a coefficient of 1.0 the delay is constant, as the
 * spec says it should be.
 *
 * <p>Wire names are lower case and matched exactly (case-sensitive).
 */
public enum BackoffStrategy {
    /** delay(n) = initial_interval; the coefficient is ignored. */
    NONE("none"),
    /** delay(n) = initial_interval * n; the coefficient is ignored. */
    LINEAR("linear"),
    /** delay(n) = initial_interval * coefficient^(n-1). The default. */
    EXPONENTIAL("exponential"),
    /** delay(n) = initial_interval * n^coefficient (Sidekiq-style growth). */
    POLYNOMIAL("polynomial");

    private final String wireName;

    BackoffStrategy(String wireName) {
        this.wireName = wireName;
    }

    /** The JSON value for {@code backoff_strategy}. */
    public String wireName() {
        return wireName;
    }

    /** Exact, case-sensitive lookup by wire name; empty for null or unknown names. */
    public static Optional<BackoffStrategy> fromWire(String wireName) {
        for (BackoffStrategy s : values()) {
            if (s.wireName.equals(wireName)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
