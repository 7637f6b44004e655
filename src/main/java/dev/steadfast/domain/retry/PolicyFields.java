package dev.steadfast.domain.retry;

import java.util.List;

/**
 * Wire names of the retry-policy fields, in spec order (OJS retry spec section 2.1), plus the
 * Steadfast extensions {@code backoff_strategy} and {@code intervals} and the millisecond aliases.
 *
 * <p>Package-private: the names are part of the JSON contract, not of the Java API.
 */
final class PolicyFields {

    static final String MAX_ATTEMPTS = "max_attempts";
    static final String INITIAL_INTERVAL = "initial_interval";
    static final String INITIAL_INTERVAL_MS = "initial_interval_ms";
    static final String BACKOFF_COEFFICIENT = "backoff_coefficient";
    static final String MAX_INTERVAL = "max_interval";
    static final String MAX_INTERVAL_MS = "max_interval_ms";
    static final String JITTER = "jitter";
    static final String NON_RETRYABLE_ERRORS = "non_retryable_errors";
    static final String ON_EXHAUSTION = "on_exhaustion";
    static final String BACKOFF_STRATEGY = "backoff_strategy";
    static final String INTERVALS = "intervals";

    /** Every key {@link RetryPolicy#merge} accepts; anything else is rejected (additionalProperties: false). */
    static final List<String> ACCEPTED = List.of(MAX_ATTEMPTS, INITIAL_INTERVAL, INITIAL_INTERVAL_MS,
            BACKOFF_COEFFICIENT, MAX_INTERVAL, MAX_INTERVAL_MS, JITTER, NON_RETRYABLE_ERRORS,
            ON_EXHAUSTION, BACKOFF_STRATEGY, INTERVALS);

    private PolicyFields() {
    }

    /** The name used in violations: the policy lives under the job option {@code retry}. */
    static String qualified(String field) {
        return "retry." + field;
    }
}
