package dev.steadfast.domain.retry;

import java.util.Optional;

/**
 * Structured error response code a handler may attach to a failure to override the policy
 * (OJS retry spec section 7). Precedence is applied by {@link RetryDecider}.
 *
 * <p>Wire names are the upper-case constant names, matched exactly. An unknown code is reported
 * as empty by {@link #fromWire(String)}; whether to reject it or treat it as "no code" is the
 * transport layer's decision.
 */
public enum HandlerCode {
    /** Retry under the normal policy; the same as giving no code. Cannot exceed max_attempts. */
    RETRY,
    /** Discard now, never dead-letter. */
    DISCARD,
    /** Dead-letter now, whatever the policy's on_exhaustion says. */
    DEAD_LETTER,
    /** Permanent failure: behaves like DISCARD but is reported with its own reason. */
    FAIL;

    /** Exact, case-sensitive lookup ({@code "DEAD_LETTER"}, not {@code "dead_letter"}); empty otherwise. */
    public static Optional<HandlerCode> fromWire(String wireName) {
        for (HandlerCode c : values()) {
            if (c.name().equals(wireName)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
