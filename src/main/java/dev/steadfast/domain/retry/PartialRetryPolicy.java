package dev.steadfast.domain.retry;

import static dev.steadfast.domain.retry.PolicyFields.qualified;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A partial retry policy (a job's {@code retry} option, or a configured type or queue scope), validated against the
 * spec rules (section 11.1) and schema (section 14) field by field, to be layered over a base policy (RET-10):
 * {@link #parse} reads the JSON object once, {@link #over} merges; a null field is absent (inherited).
 *
 * <p>Accepted beyond the spec schema: {@code backoff_strategy} and {@code intervals} (Steadfast extensions; a
 * scope whose strategy is not {@code custom} drops an inherited {@code intervals} list) and the
 * integer-millisecond aliases {@code initial_interval_ms} / {@code max_interval_ms}; giving both
 * forms of one duration is rejected. A key whose value is JSON null is treated as absent. Every
 * other key is rejected because the schema sets {@code additionalProperties: false}.
 *
 * <p>Rules on the combined policy ({@code max_interval >= initial_interval}) are checked by {@link #over}, so a
 * partial policy is judged by the effective policy it produces. The violation names {@code max_interval} when the
 * partial set it, otherwise {@code initial_interval} (under the name, ISO or _ms form, it was given as).
 *
 * @param initialInterval given with the name it was given under (ISO or _ms form), as is {@code maxInterval}
 * @param intervals       only under an effective strategy {@code custom} (given here or inherited)
 */
public record PartialRetryPolicy(Integer maxAttempts, Given initialInterval, Double backoffCoefficient,
                                 Given maxInterval, Boolean jitter, List<String> nonRetryableErrors,
                                 OnExhaustion onExhaustion, BackoffStrategy strategy, List<Duration> intervals) {

    /** Nothing given: every field inherited. */
    public static final PartialRetryPolicy NONE = new PartialRetryPolicy(null, null, null, null, null, null, null,
            null, null);

    /** A duration read from the partial policy, with the name it was given under (ISO or _ms form). */
    public record Given(String field, Duration value) {
    }

    /**
     * Reads {@code partial} (a JSON object as parsed by a JSON library into Map, List, String, Number and Boolean
     * values; null or empty: {@link #NONE}).
     *
     * @throws PolicyViolation naming the first invalid, mistyped or unknown field
     */
    public static PartialRetryPolicy parse(Map<String, Object> partial) {
        if (partial == null || partial.isEmpty()) {
            return NONE;
        }
        rejectUnknownFields(partial);
        return new PartialRetryPolicy(maxAttempts(partial),
                duration(partial, PolicyFields.INITIAL_INTERVAL, PolicyFields.INITIAL_INTERVAL_MS), coefficient(partial),
                duration(partial, PolicyFields.MAX_INTERVAL, PolicyFields.MAX_INTERVAL_MS), jitter(partial),
                nonRetryableErrors(partial), onExhaustion(partial), strategy(partial), intervals(partial));
    }

    /**
     * This policy layered over {@code base}: given fields override, absent ones inherit (RET-10); {@code base}
     * itself when nothing is given.
     *
     * @throws PolicyViolation when the merged policy breaks {@code max_interval >= initial_interval}, or gives
     *                         {@code intervals} under an inherited strategy that is not {@code custom}
     */
    public RetryPolicy over(RetryPolicy base) {
        if (this.equals(NONE)) {
            return base;
        }
        // Cross-field rules run last so a single bad field is always reported as itself.
        Duration effectiveInitial = initialInterval == null ? base.initialInterval() : initialInterval.value();
        Duration effectiveMax = maxInterval == null ? base.maxInterval() : maxInterval.value();
        requireOrdered(initialInterval, maxInterval, effectiveInitial, effectiveMax);
        BackoffStrategy s = strategy == null ? base.strategy() : strategy;
        List<Duration> effectiveIntervals = intervals == null ? base.intervals() : intervals;
        if (s != BackoffStrategy.CUSTOM) {
            if (intervals != null) {
                throw new PolicyViolation(qualified(PolicyFields.INTERVALS),
                        "is used only with backoff_strategy \"custom\", which this policy does not set");
            }
            effectiveIntervals = List.of(); // a scope that switches away from custom drops the inherited list
        }
        return new RetryPolicy(maxAttempts == null ? base.maxAttempts() : maxAttempts, effectiveInitial,
                backoffCoefficient == null ? base.backoffCoefficient() : backoffCoefficient, effectiveMax,
                jitter == null ? base.jitter() : jitter,
                nonRetryableErrors == null ? base.nonRetryableErrors() : nonRetryableErrors,
                onExhaustion == null ? base.onExhaustion() : onExhaustion, s, effectiveIntervals);
    }

    private static void rejectUnknownFields(Map<String, Object> partial) {
        for (String key : partial.keySet()) {
            if (key == null || !PolicyFields.ACCEPTED.contains(key)) {
                throw new PolicyViolation(qualified(String.valueOf(key)), "is not a retry policy field");
            }
        }
    }

    private static Given duration(Map<String, Object> partial, String isoName, String msName) {
        Object iso = partial.get(isoName);
        Object ms = partial.get(msName);
        if (iso != null && ms != null) {
            throw new PolicyViolation(qualified(isoName), "and " + qualified(msName)
                    + " are two forms of the same field; give only one");
        }
        Given given = null;
        if (iso != null) {
            String field = qualified(isoName);
            given = new Given(field, Iso8601Duration.parse(field, WireValues.string(field, iso)));
        } else if (ms != null) {
            String field = qualified(msName);
            given = new Given(field, Duration.ofMillis(WireValues.integer(field, ms, 0, Iso8601Duration.MAX.toMillis())));
        }
        if (given != null && given.value().isZero()) {
            throw new PolicyViolation(given.field(), "must be greater than zero, got " + Iso8601Duration.format(given.value()));
        }
        return given;
    }

    private static void requireOrdered(Given initial, Given max, Duration effectiveInitial, Duration effectiveMax) {
        if (effectiveMax.compareTo(effectiveInitial) >= 0) {
            return;
        }
        String blamed = max != null ? max.field() : initial.field();
        throw new PolicyViolation(blamed, "violates max_interval >= initial_interval: max_interval is "
                + Iso8601Duration.format(effectiveMax) + ", initial_interval is " + Iso8601Duration.format(effectiveInitial));
    }

    private static Integer maxAttempts(Map<String, Object> partial) {
        Object v = partial.get(PolicyFields.MAX_ATTEMPTS);
        return v == null ? null
                : (int) WireValues.integer(qualified(PolicyFields.MAX_ATTEMPTS), v, 0, Integer.MAX_VALUE);
    }

    private static Double coefficient(Map<String, Object> partial) {
        Object v = partial.get(PolicyFields.BACKOFF_COEFFICIENT);
        if (v == null) {
            return null;
        }
        String field = qualified(PolicyFields.BACKOFF_COEFFICIENT);
        BigDecimal c = WireValues.number(field, v, "a number");
        if (c.compareTo(BigDecimal.ONE) < 0) {
            throw new PolicyViolation(field, "must be >= 1.0, got " + c.toPlainString());
        }
        double d = c.doubleValue();
        if (!Double.isFinite(d)) {
            throw new PolicyViolation(field, "must be a finite number, got " + c.toPlainString());
        }
        return d;
    }

    private static Boolean jitter(Map<String, Object> partial) {
        Object v = partial.get(PolicyFields.JITTER);
        return v == null ? null : WireValues.bool(qualified(PolicyFields.JITTER), v);
    }

    private static List<String> nonRetryableErrors(Map<String, Object> partial) {
        Object v = partial.get(PolicyFields.NON_RETRYABLE_ERRORS);
        return v == null ? null : WireValues.nonEmptyStrings(qualified(PolicyFields.NON_RETRYABLE_ERRORS), v);
    }

    private static OnExhaustion onExhaustion(Map<String, Object> partial) {
        return named(partial, PolicyFields.ON_EXHAUSTION, OnExhaustion::fromWire, "\"discard\" or \"dead_letter\"");
    }

    /** {@code intervals}: a JSON array of ISO 8601 durations, one per retry (the last one repeats). */
    private static List<Duration> intervals(Map<String, Object> partial) {
        Object v = partial.get(PolicyFields.INTERVALS);
        if (v == null) {
            return null;
        }
        String field = qualified(PolicyFields.INTERVALS);
        List<String> items = WireValues.nonEmptyStrings(field, v);
        if (items.size() > RetryPolicy.MAX_INTERVALS) {
            throw new PolicyViolation(field, "must list at most " + RetryPolicy.MAX_INTERVALS + " delays, got "
                    + items.size());
        }
        List<Duration> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            out.add(Iso8601Duration.parse(field + "[" + i + "]", items.get(i)));
        }
        return List.copyOf(out);
    }

    private static BackoffStrategy strategy(Map<String, Object> partial) {
        return named(partial, PolicyFields.BACKOFF_STRATEGY, BackoffStrategy::fromWire,
                "one of \"none\" (or \"constant\"), \"linear\", \"exponential\", \"polynomial\", \"custom\"");
    }

    /** A field whose string value names one of a closed set ({@code fromWire}, described by {@code allowed}). */
    private static <T> T named(Map<String, Object> partial, String key, Function<String, Optional<T>> fromWire,
                               String allowed) {
        Object v = partial.get(key);
        if (v == null) {
            return null;
        }
        String field = qualified(key);
        String name = WireValues.string(field, v);
        return fromWire.apply(name).orElseThrow(() ->
                new PolicyViolation(field, "must be " + allowed + ", got \"" + name + "\""));
    }
}
