package dev.steadfast.domain.retry;

import java.util.List;

/**
 * Matches an error type against {@code non_retryable_errors} entries (OJS retry spec section 6.2).
 *
 * <p>An entry matches when it equals the error type exactly (RET-18), or when it ends in
 * {@code ".*"} and the error type starts with the entry minus its {@code "*"} — the dot is part of
 * the prefix. So {@code "auth.*"} matches {@code "auth.token_expired"} but neither {@code "auth"}
 * nor {@code "external.auth.failure"}. Matching is case-sensitive; no other wildcards exist.
 *
 * <p>A null or blank error type matches nothing, and null entries are ignored, so missing data can
 * never turn a failure non-retryable.
 */
final class ErrorMatcher {

    private static final String WILDCARD_SUFFIX = ".*";

    private ErrorMatcher() {
    }

    /** True when {@code errorType} matches any of {@code patterns}. */
    public static boolean matches(List<String> patterns, String errorType) {
        if (patterns == null || errorType == null || errorType.isBlank()) {
            return false;
        }
        for (String pattern : patterns) {
            if (pattern != null && matchesOne(pattern, errorType)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesOne(String pattern, String errorType) {
        if (pattern.equals(errorType)) {
            return true;
        }
        if (!pattern.endsWith(WILDCARD_SUFFIX)) {
            return false;
        }
        String prefix = pattern.substring(0, pattern.length() - 1);
        return errorType.startsWith(prefix);
    }
}
