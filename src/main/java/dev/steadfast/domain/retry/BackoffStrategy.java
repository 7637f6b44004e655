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
 * <p>Wire names are lower case and matched exactly (case-sensitive). {@code constant} is accepted as another name
 * for {@link #NONE} (the HTTP binding's openapi.yaml and zzz_jobs call it that; ojs-retry.md 3.1 says
 * {@code none}); the canonical name written back is {@code none}.
 */
public enum BackoffStrategy {
    /** delay(n) = initial_interval; the coefficient is ignored. */
    NONE("none"),
    /** delay(n) = initial_interval * n; the coefficient is ignored. */
    LINEAR("linear"),
    /** delay(n) = initial_interval * coefficient^(n-1). The default. */
    EXPONENTIAL("exponential"),
    /** delay(n) = initial_interval * n^coefficient (Sidekiq-style growth). */
    POLYNOMIAL("polynomial"),
    /**
     * delay(n) = intervals[min(n, size) - 1]: an explicit delay per retry, the last one repeating (zzz_jobs'
     * custom strategy, written as data); initial_interval and the coefficient are ignored.
     */
    CUSTOM("custom");

    /** The other accepted name of {@link #NONE}. */
    public static final String CONSTANT_ALIAS = "constant";

    private final String wireName;

    BackoffStrategy(String wireName) {
        this.wireName = wireName;
    }

    /** The JSON value for {@code backoff_strategy}. */
    public String wireName() {
        return wireName;
    }

    /** Exact, case-sensitive lookup by wire name (or {@code constant}); empty for null or unknown names. */
    public static Optional<BackoffStrategy> fromWire(String wireName) {
        if (CONSTANT_ALIAS.equals(wireName)) {
            return Optional.of(NONE);
        }
        for (BackoffStrategy s : values()) {
            if (s.wireName.equals(wireName)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
