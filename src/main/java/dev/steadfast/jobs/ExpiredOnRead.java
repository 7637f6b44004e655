package dev.steadfast.jobs;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.UUID;

/**
 * Discards a job that INFO read waiting past its expires_at (domain.JobExpiry.due), as the expiry reaper would
 * (the same error entry and job.discarded event), so INFO never answers such a job as waiting. Implemented by the
 * expiry's owner, work.ExpiredJobs.
 */
public interface ExpiredOnRead {

    /** Discards job {@code id} if it is still waiting past its expires_at at {@code now}. */
    Uni<Void> discard(UUID id, Instant now);
}
