package dev.steadfast.domain;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Set;

/**
 * Job expiry (expires_at, ojs-core.md 5.2): a job whose deadline has passed before a worker fetched it is never
 * handed out; it is discarded with a recorded reason instead ({@link JobStateMachine.Operation#EXPIRE}). The
 * deadline applies to every fetch of the job, so a retry that would start after it is not started either. A job
 * pushed with a deadline already past is accepted and discarded at its first fetch, read or expiry pass (never
 * delivered), as if it had expired in the queue.
 *
 * <p>The rule has a SQL form, written once in store (the claim's and the expiry reaper's {@code expires_at <= now}
 * over EXPIRE's sources, and the recorded entry built in SQL by the claim); tests hold the SQL to this class.
 */
public final class JobExpiry {

    /** The error code and type written into the discarded job's {@code error}. */
    public static final String CODE = "expired";

    /** Timestamps in the reason: the wire's form (UTC, milliseconds), which the claim's SQL writes alike. */
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private JobExpiry() {
    }

    /** True when a job with deadline {@code expiresAt} must not be handed out at {@code now}. */
    public static boolean expired(Instant expiresAt, Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    /** The states a job is discarded from when its deadline passes: it has not been started (EXPIRE's sources). */
    public static Set<JobState> expiresFrom() {
        return JobStateMachine.sources(JobStateMachine.Operation.EXPIRE);
    }

    /**
     * True when a job in {@code state} with deadline {@code expiresAt} is, at {@code now}, to be discarded rather
     * than seen as waiting: whoever meets it (a claim, a read, the reaper) discards it.
     */
    public static boolean due(JobState state, Instant expiresAt, Instant now) {
        return expiresFrom().contains(state) && expired(expiresAt, now);
    }

    /** The recorded reason for discarding a job in {@code state} that expired at {@code expiresAt}. */
    public static String reason(Instant expiresAt, JobState state, Instant now) {
        return "Expired: the job's expires_at (" + STAMP.format(expiresAt) + ") passed while it was " + state.wire()
                + "; discarded at " + STAMP.format(now) + " instead of being handed to a worker.";
    }
}
