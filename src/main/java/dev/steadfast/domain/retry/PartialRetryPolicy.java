package dev.steadfast.domain.retry;

import static dev.steadfast.domain.retry.PolicyFields.qualified;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Implements {@link RetryPolicy#merge}: validates a partial retry-policy JSON object against the
 * spec rules (section 11.1) and schema (section 14) and layers it over a base policy (RET-10).
 *
 * <p>Accepted beyond the spec schema: {@code backoff_strategy} and {@code intervals} (Steadfast extensions; a
 * scope whose strategy is not {@code custom} drops an inherited {@code intervals} list) and the
 * integer-millisecond aliases {@code initial_interval_ms} / {@code max_interval_ms}; giving both
 * forms of one duration is rejected. A key whose value is JSON null is treated as absent. Every
 * other key is rejected because the schema sets {@code additionalProperties: false}.
 *
 * <p>Rules on the combined policy ({@code max_interval >= initial_interval}) are checked after
 * merging, so a partial policy is judged by the effective policy it produces. The violation names
 * {@code max_interval} when the partial set it, otherwise {@code initial_interval}.
 */
final class PolicyMerge {

    /** A duration read from the partial policy, with the name it was given under (ISO or _ms form). */
    private record Given(String field, Duration value) {
    }

    private PolicyMerge() {
    }

    static RetryPolicy merge(RetryPolicy base, Map<String, Object> partial) {
        if (partial == null || partial.isEmpty()) {
            return base;
        }
        rejectUnknownFields(partial);
        int maxAttempts = maxAttempts(partial, base.maxAttempts());
        Given initial = duration(partial, PolicyFields.INITIAL_INTERVAL, PolicyFields.INITIAL_INTERVAL_MS);
        double coefficient = coefficient(partial, base.backoffCoefficient());
        Given max = duration(partial, PolicyFields.MAX_INTERVAL, PolicyFields.MAX_INTERVAL_MS);
        boolean jitter = jitter(partial, base.jitter());
        List<String> nonRetryable = nonRetryableErrors(partial, base.nonRetryableErrors());
        OnExhaustion onExhaustion = onExhaustion(partial, base.onExhaustion());
        BackoffStrategy strategy = strategy(partial, base.strategy());
        List<Duration> intervals = intervals(partial, base.intervals());
        // Cross-field rules run last so a single bad field is always reported as itself.
        Duration effectiveInitial = initial == null ? base.initialInterval() : initial.value();
        Duration effectiveMax = max == null ? base.maxInterval() : max.value();
        requireOrdered(initial, max, effectiveInitial, effectiveMax);
        if (strategy != BackoffStrategy.CUSTOM) {
            if (partial.get(PolicyFields.INTERVALS) != null) {
                throw new PolicyViolation(qualified(PolicyFields.INTERVALS),
                        "is used only with backoff_strategy \"custom\", which this policy does not set");
            }
            intervals = List.of(); // a scope that switches away from custom drops the inherited list
        }
        return new RetryPolicy(maxAttempts, effectiveInitial, coefficient, effectiveMax, jitter, nonRetryable,
                onExhaustion, strategy, intervals);
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

    private static int maxAttempts(Map<String, Object> partial, int inherited) {
        Object v = partial.get(PolicyFields.MAX_ATTEMPTS);
        return v == null ? inherited
                : (int) WireValues.integer(qualified(PolicyFields.MAX_ATTEMPTS), v, 0, Integer.MAX_VALUE);
    }

    private static double coefficient(Map<String, Object> partial, double inherited) {
        Object v = partial.get(PolicyFields.BACKOFF_COEFFICIENT);
        if (v == null) {
            return inherited;
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

    private static boolean jitter(Map<String, Object> partial, boolean inherited) {
        Object v = partial.get(PolicyFields.JITTER);
        return v == null ? inherited : WireValues.bool(qualified(PolicyFields.JITTER), v);
    }

    private static List<String> nonRetryableErrors(Map<String, Object> partial, List<String> inherited) {
        Object v = partial.get(PolicyFields.NON_RETRYABLE_ERRORS);
        return v == null ? inherited : WireValues.nonEmptyStrings(qualified(PolicyFields.NON_RETRYABLE_ERRORS), v);
    }

    private static OnExhaustion onExhaustion(Map<String, Object> partial, OnExhaustion inherited) {
        Object v = partial.get(PolicyFields.ON_EXHAUSTION);
        if (v == null) {
            return inherited;
        }
        String field = qualified(PolicyFields.ON_EXHAUSTION);
        String name = WireValues.string(field, v);
        return OnExhaustion.fromWire(name).orElseThrow(() ->
                new PolicyViolation(field, "must be \"discard\" or \"dead_letter\", got \"" + name + "\""));
    }

    /** {@code intervals}: a JSON array of ISO 8601 durations, one per retry (the last one repeats). */
    private static List<Duration> intervals(Map<String, Object> partial, List<Duration> inherited) {
        Object v = partial.get(PolicyFields.INTERVALS);
        if (v == null) {
            return inherited;
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
        return out;
    }

    private static BackoffStrategy strategy(Map<String, Object> partial, BackoffStrategy inherited) {
        Object v = partial.get(PolicyFields.BACKOFF_STRATEGY);
        if (v == null) {
            return inherited;
        }
        String field = qualified(PolicyFields.BACKOFF_STRATEGY);
        String name = WireValues.string(field, v);
        return BackoffStrategy.fromWire(name).orElseThrow(() -> new PolicyViolation(field,
                "must be one of \"none\" (or \"constant\"), \"linear\", \"exponential\", \"polynomial\", \"custom\", got \""
                        + name + "\""));
    }
}
