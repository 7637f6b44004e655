package dev.steadfast.domain.retry;

import static dev.steadfast.domain.retry.PolicyFields.qualified;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An effective, fully validated OJS retry policy (retry spec section 2) plus the Steadfast
 * {@code backoff_strategy} extension.
 *
 * <p>Guarantees: every instance satisfies the rules of spec section 11.1 and the schema of
 * section 14 — the constructor throws {@link PolicyViolation} otherwise — and is immutable
 * ({@code nonRetryableErrors} is an unmodifiable copy). Durations are positive and at most
 * {@link Iso8601Duration#MAX}; {@code maxInterval >= initialInterval}; the coefficient is finite
 * and at least 1.0.
 *
 * <p>Wire input goes through {@link #merge(RetryPolicy, Map)} (or {@link PartialRetryPolicy}, read once and layered
 * over many bases), which layers a partial JSON object over a base policy (RET-10) and rejects unknown fields
 * (RET-20); {@link #toWire()} produces the
 * canonical JSON form, which {@code merge} accepts back unchanged.
 */
public record RetryPolicy(
        int maxAttempts,
        Duration initialInterval,
        double backoffCoefficient,
        Duration maxInterval,
        boolean jitter,
        List<String> nonRetryableErrors,
        OnExhaustion onExhaustion,
        BackoffStrategy strategy,
        List<Duration> intervals) {

    /** Most entries an {@code intervals} list may have. */
    public static final int MAX_INTERVALS = 100;

    /** The spec default policy (section 8), applied when a job has no {@code retry} option (RET-09). */
    public static final RetryPolicy DEFAULT = new RetryPolicy(3, Duration.ofSeconds(1), 2.0,
            Duration.ofMinutes(5), true, List.of(), OnExhaustion.DISCARD, BackoffStrategy.EXPONENTIAL);

    public RetryPolicy {
        Objects.requireNonNull(initialInterval, "initialInterval");
        Objects.requireNonNull(maxInterval, "maxInterval");
        Objects.requireNonNull(nonRetryableErrors, "nonRetryableErrors");
        Objects.requireNonNull(onExhaustion, "onExhaustion");
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(intervals, "intervals");
        requireValid(maxAttempts, initialInterval, backoffCoefficient, maxInterval, nonRetryableErrors);
        requireValidIntervals(strategy, intervals, maxInterval);
        nonRetryableErrors = List.copyOf(nonRetryableErrors);
        intervals = List.copyOf(intervals);
    }

    /** A policy of one of the formula strategies (every strategy but {@link BackoffStrategy#CUSTOM}). */
    public RetryPolicy(int maxAttempts, Duration initialInterval, double backoffCoefficient, Duration maxInterval,
            boolean jitter, List<String> nonRetryableErrors, OnExhaustion onExhaustion, BackoffStrategy strategy) {
        this(maxAttempts, initialInterval, backoffCoefficient, maxInterval, jitter, nonRetryableErrors, onExhaustion,
                strategy, List.of());
    }

    /**
     * Layers {@code partial} (a JSON object as parsed by a JSON library into Map, List, String,
     * Number and Boolean values) over {@code base}: present fields override, absent or JSON-null
     * fields inherit (RET-10). Accepts the seven spec fields, the {@code backoff_strategy} extension
     * and the integer aliases {@code initial_interval_ms} / {@code max_interval_ms} (giving both forms
     * of one duration is an error); any other key is rejected. Single fields are validated first,
     * then {@code max_interval >= initial_interval} on the merged result. A null or empty
     * {@code partial} returns {@code base} itself.
     *
     * @throws PolicyViolation naming the first invalid, mistyped or unknown field
     */
    public static RetryPolicy merge(RetryPolicy base, Map<String, Object> partial) {
        return PartialRetryPolicy.parse(partial).over(Objects.requireNonNull(base, "base"));
    }

    /**
     * The stored form of this policy: the fields of {@link #toWire()} whose values differ from {@link #DEFAULT}'s,
     * in the same order; empty for the default itself. A job row keeps this, not the whole policy: the default is
     * the spec's constant (section 8), never configuration, so what a job was enqueued with stays fixed, and
     * {@link #fromStored} gives the same policy back.
     */
    public Map<String, Object> stored() {
        Map<String, Object> wire = toWire();
        Map<String, Object> base = DEFAULT.toWire();
        wire.entrySet().removeIf(e -> e.getValue().equals(base.get(e.getKey())));
        return wire;
    }

    /** The policy a stored form stands for: {@code stored} (null or empty for the default) over {@link #DEFAULT}. */
    public static RetryPolicy fromStored(Map<String, Object> stored) {
        return merge(DEFAULT, stored);
    }

    /** A copy with a different {@code max_attempts}. */
    public RetryPolicy withMaxAttempts(int newMaxAttempts) {
        return new RetryPolicy(newMaxAttempts, initialInterval, backoffCoefficient, maxInterval, jitter,
                nonRetryableErrors, onExhaustion, strategy, intervals);
    }

    /**
     * Canonical JSON-ready form: a fresh {@link LinkedHashMap} in spec field order with durations
     * as ISO strings, followed by the {@code backoff_strategy} extension.
     */
    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        wire.put(PolicyFields.MAX_ATTEMPTS, maxAttempts);
        wire.put(PolicyFields.INITIAL_INTERVAL, Iso8601Duration.format(initialInterval));
        wire.put(PolicyFields.BACKOFF_COEFFICIENT, backoffCoefficient);
        wire.put(PolicyFields.MAX_INTERVAL, Iso8601Duration.format(maxInterval));
        wire.put(PolicyFields.JITTER, jitter);
        wire.put(PolicyFields.NON_RETRYABLE_ERRORS, nonRetryableErrors);
        wire.put(PolicyFields.ON_EXHAUSTION, onExhaustion.wireName());
        wire.put(PolicyFields.BACKOFF_STRATEGY, strategy.wireName());
        if (strategy == BackoffStrategy.CUSTOM) {
            wire.put(PolicyFields.INTERVALS, intervals.stream().map(Iso8601Duration::format).toList());
        }
        return wire;
    }

    private static void requireValid(int maxAttempts, Duration initial, double coefficient, Duration max,
            List<String> nonRetryable) {
        if (maxAttempts < 0) {
            throw new PolicyViolation(qualified(PolicyFields.MAX_ATTEMPTS), "must be >= 0, got " + maxAttempts);
        }
        requireInRange(PolicyFields.INITIAL_INTERVAL, initial);
        if (!Double.isFinite(coefficient) || coefficient < 1.0) {
            throw new PolicyViolation(qualified(PolicyFields.BACKOFF_COEFFICIENT),
                    "must be a finite number >= 1.0, got " + coefficient);
        }
        requireInRange(PolicyFields.MAX_INTERVAL, max);
        if (max.compareTo(initial) < 0) {
            throw new PolicyViolation(qualified(PolicyFields.MAX_INTERVAL), "must be >= initial_interval, got "
                    + Iso8601Duration.format(max) + " < " + Iso8601Duration.format(initial));
        }
        for (String entry : nonRetryable) {
            if (entry == null || entry.isEmpty()) {
                throw new PolicyViolation(qualified(PolicyFields.NON_RETRYABLE_ERRORS),
                        "must contain only non-empty strings");
            }
        }
    }

    /**
     * {@code intervals} is non-empty exactly when the strategy is custom, has at most {@link #MAX_INTERVALS}
     * entries, each greater than zero and at most {@code max_interval} (which caps every delay, RET-04).
     */
    private static void requireValidIntervals(BackoffStrategy strategy, List<Duration> intervals, Duration max) {
        String field = qualified(PolicyFields.INTERVALS);
        if (strategy != BackoffStrategy.CUSTOM) {
            if (!intervals.isEmpty()) {
                throw new PolicyViolation(field, "is used only with backoff_strategy \"custom\"");
            }
            return;
        }
        if (intervals.isEmpty() || intervals.size() > MAX_INTERVALS) {
            throw new PolicyViolation(field, "must list 1 to " + MAX_INTERVALS
                    + " delays (ISO 8601 durations, one per retry) with backoff_strategy \"custom\", got "
                    + intervals.size());
        }
        for (int i = 0; i < intervals.size(); i++) {
            Duration d = Objects.requireNonNull(intervals.get(i), "intervals");
            if (d.isNegative() || d.isZero()) {
                throw new PolicyViolation(field, "item " + i + " must be greater than zero, got " + d);
            }
            if (d.compareTo(max) > 0) {
                throw new PolicyViolation(field, "item " + i + " (" + Iso8601Duration.format(d)
                        + ") is longer than max_interval (" + Iso8601Duration.format(max)
                        + "), which caps every delay; raise max_interval");
            }
        }
    }

    private static void requireInRange(String field, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new PolicyViolation(qualified(field), "must be greater than zero, got " + d);
        }
        if (d.compareTo(Iso8601Duration.MAX) > 0) {
            throw new PolicyViolation(qualified(field), "must be at most " + Iso8601Duration.format(Iso8601Duration.MAX)
                    + ", got " + Iso8601Duration.format(d));
        }
    }
}
