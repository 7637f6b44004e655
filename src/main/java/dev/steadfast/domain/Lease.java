package dev.steadfast.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A worker's reservation of a job (OJS visibility timeout, retry spec sections 9.2 and 9.3).
 *
 * <p>Guarantees: a lease never runs past the job's execution deadline when one is given, and a
 * heartbeat ({@link #extend}) before expiry never moves {@code expiresAt} backwards except to honour
 * that deadline (RET-13). A heartbeat at or after expiry is refused: by then the lease has expired
 * and the server must treat the attempt as failed (RET-12).
 *
 * <p>Limits: pure value; persisting the lease and checking the owner are the caller's job. The store applies
 * these rules set-based in SQL (the claim for {@link #expiry}, store.WorkerStore.EXTEND_LEASES for
 * {@link #extend}); HeartbeatLeaseTest checks the heartbeat statement against {@link #extend}.
 */
public record Lease(String owner, Instant expiresAt) {

    public Lease {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /**
     * {@code min(now + visibility, executionDeadline)}; a null deadline means none.
     *
     * @throws IllegalArgumentException if {@code visibility} is not positive
     */
    public static Instant expiry(Instant now, Duration visibility, Instant executionDeadline) {
        Objects.requireNonNull(now, "now");
        if (visibility == null || visibility.isNegative() || visibility.isZero()) {
            throw new IllegalArgumentException("visibility must be positive, got " + visibility);
        }
        Instant byVisibility = now.plus(visibility);
        return executionDeadline != null && executionDeadline.isBefore(byVisibility) ? executionDeadline : byVisibility;
    }

    /** True when the lease has run out at {@code now}. */
    public boolean isExpired(Instant now) {
        return !now.isBefore(expiresAt);
    }

    /**
     * Heartbeat: the later of the current expiry and {@link #expiry}{@code (now, visibility, deadline)},
     * but never past {@code executionDeadline}.
     *
     * @throws IllegalStateException if the lease has already expired at {@code now}
     */
    public Lease extend(Instant now, Duration visibility, Instant executionDeadline) {
        if (isExpired(now)) {
            throw new IllegalStateException("lease of " + owner + " expired at " + expiresAt + "; heartbeat at " + now
                    + " is too late");
        }
        Instant target = expiry(now, visibility, executionDeadline);
        // A heartbeat with a shorter visibility must not cut an already granted reservation short.
        Instant later = target.isAfter(expiresAt) ? target : expiresAt;
        Instant bounded = executionDeadline != null && later.isAfter(executionDeadline) ? executionDeadline : later;
        return new Lease(owner, bounded);
    }
}
