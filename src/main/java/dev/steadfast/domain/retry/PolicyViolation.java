package dev.steadfast.domain.retry;

import java.util.Objects;

/**
 * Thrown when a retry policy (or one of its values) breaks the OJS retry-policy rules
 * (spec sections 11.1 and 14).
 *
 * <p>Guarantees: {@link #field()} is the qualified wire name of the offending field
 * (for example {@code "retry.backoff_coefficient"}), and {@link #getMessage()} always starts
 * with that name, so it contains the bare field name too. The HTTP layer can therefore return
 * the message verbatim in a 422 response with error type {@link #ERROR_TYPE}.
 *
 * <p>Limits: one violation is reported per exception; validation stops at the first problem.
 */
public final class PolicyViolation extends RuntimeException {

    /** OJS error type for every retry-policy validation failure (spec section 11.1). */
    public static final String ERROR_TYPE = "validation.retry_policy_invalid";

    private static final long serialVersionUID = 1L;

    private final String field;

    /**
     * @param field  qualified field name, e.g. {@code "retry.max_attempts"}
     * @param detail what is wrong, phrased to follow the field name, e.g. {@code "must be >= 1.0, got 0.5"}
     */
    public PolicyViolation(String field, String detail) {
        super(Objects.requireNonNull(field, "field") + " " + Objects.requireNonNull(detail, "detail"));
        this.field = field;
    }

    /** Qualified name of the field that failed validation, e.g. {@code "retry.initial_interval"}. */
    public String field() {
        return field;
    }
}
