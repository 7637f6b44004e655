package dev.steadfast.jobs;

import dev.steadfast.domain.retry.MaxAttemptsRule;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.PositiveOrZero;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Retry policy scopes, each a partial OJS retry policy in JSON: the job's own policy wins over its type's,
 * which wins over its queue's, which wins over the server default (itself merged over the OJS defaults).
 */
@ConfigMapping(prefix = "steadfast.retry")
public interface RetryConfig {

    /** The server default, e.g. {"max_attempts": 5}. */
    Optional<String> defaults();

    /** Per queue: steadfast.retry.queues.billing={"on_exhaustion":"dead_letter"}. */
    Map<String, String> queues();

    /** Per job type: steadfast.retry.types."email.send"={"max_attempts":10}. */
    Map<String, String> types();

    /** Smallest effective max_attempts allowed (OJS allows 0: run once, never retry). */
    @WithDefault("0")
    @PositiveOrZero
    int maxAttemptsMin();

    /** Largest effective max_attempts allowed (e.g. 100); unset, there is no upper bound. */
    OptionalInt maxAttemptsMax();

    /**
     * What happens to an effective max_attempts outside [max-attempts-min, max-attempts-max]: {@code clamp} to
     * the nearest bound, {@code reset} to the server default's max_attempts (steadfast.retry.defaults, else 3),
     * or {@code reject} the job with 422.
     */
    @WithDefault("clamp")
    MaxAttemptsRule.Mode maxAttemptsOutOfRange();
}
