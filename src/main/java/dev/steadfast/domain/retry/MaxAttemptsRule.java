package dev.steadfast.domain.retry;

/**
 * What happens to an effective {@code max_attempts} outside the range an operator allows: lowered or raised to
 * the nearest bound ({@link Mode#CLAMP}), replaced by the server default ({@link Mode#RESET}, Flare's "values
 * outside 1-100 are reset to 3"), or refused with a {@link PolicyViolation} ({@link Mode#REJECT}, a 422 naming
 * {@code retry.max_attempts}). Applied once, to the policy merged from every scope, so the rule judges the value
 * the job will actually run with.
 *
 * @param min   smallest allowed value (0 or more; OJS allows 0, which runs once and never retries)
 * @param max   largest allowed value, at least {@code min}
 * @param mode  what to do with a value outside [min, max]
 */
public record MaxAttemptsRule(int min, int max, Mode mode) {

    /** The treatments of an out-of-range value. */
    public enum Mode {
        /** Use the nearest bound. */
        CLAMP,
        /** Use the server default's max_attempts. */
        RESET,
        /** Refuse the job. */
        REJECT
    }

    /** Every non-negative value allowed: the rule never fires. */
    public static final MaxAttemptsRule UNBOUNDED = new MaxAttemptsRule(0, Integer.MAX_VALUE, Mode.CLAMP);

    public MaxAttemptsRule {
        if (min < 0 || max < min || mode == null) {
            throw new IllegalArgumentException("max_attempts range must satisfy 0 <= min <= max, got [" + min + ", "
                    + max + "] " + mode);
        }
    }

    /** Whether {@code value} is allowed as it is. */
    public boolean allows(int value) {
        return value >= min && value <= max;
    }

    /**
     * The max_attempts to run with.
     *
     * @param resetTo the server default's max_attempts, used by {@link Mode#RESET}; must itself be in range
     * @throws PolicyViolation under {@link Mode#REJECT} when {@code value} is out of range
     */
    public int apply(int value, int resetTo) {
        if (allows(value)) {
            return value;
        }
        return switch (mode) {
            case CLAMP -> Math.max(min, Math.min(max, value));
            case RESET -> resetTo;
            case REJECT -> throw new PolicyViolation(PolicyFields.qualified(PolicyFields.MAX_ATTEMPTS),
                    "must be from " + min + " to " + max + " on this server, got " + value);
        };
    }

    /** The same policy with its max_attempts judged by this rule. */
    public RetryPolicy apply(RetryPolicy policy, int resetTo) {
        int n = apply(policy.maxAttempts(), resetTo);
        return n == policy.maxAttempts() ? policy : policy.withMaxAttempts(n);
    }
}
