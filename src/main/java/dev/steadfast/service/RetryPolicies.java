package dev.steadfast.service;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.retry.PolicyViolation;
import dev.steadfast.domain.retry.RetryPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Resolves the effective retry policy of a job at enqueue time: the job's own (partial) policy merged over the
 * server default. A policy that breaks a rule of ojs-retry.md section 11 is refused with 422 naming the field,
 * and nothing is enqueued.
 */
@ApplicationScoped
public class RetryPolicies {

    /** The effective policy for a job of {@code type} in {@code queue} that asked for {@code partial}. */
    public RetryPolicy resolve(String type, String queue, Map<String, Object> partial) {
        RetryPolicy base = RetryPolicy.DEFAULT;
        if (partial == null) {
            return base;
        }
        try {
            return RetryPolicy.merge(base, partial);
        } catch (PolicyViolation v) {
            throw new OjsException(ErrorCode.VALIDATION_ERROR, v.getMessage(), Map.of("field", v.field()));
        }
    }
}
