package dev.steadfast.domain;

import java.time.Instant;

/**
 * Job expiry (expires_at, ojs-core.md 5.2): a job whose deadline has passed before a worker fetched it is never
 * handed out; it is discarded with a recorded reason instead. The deadline applies to every fetch of the job, so
 * a retry that would start after it is not started either. A job pushed with a deadline already past is accepted
 * and discarded by the next expiry pass (never delivered), as if it had expired in the queue.
 */
public final class JobExpiry {

    /** The error code and type written into the discarded job's {@code error}. */
    public static final String CODE = "expired";

    private JobExpiry() {
    }

    /** True when a job with deadline {@code expiresAt} must not be handed out at {@code now}. */
    public static boolean expired(Instant expiresAt, Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    /** The recorded reason for discarding a job in {@code state} that expired at {@code expiresAt}. */
    public static String reason(Instant expiresAt, JobState state, Instant now) {
        return "Expired: the job's expires_at (" + expiresAt + ") passed while it was " + state.wire()
                + "; discarded at " + now + " instead of being handed to a worker.";
    }
}
