package dev.steadfast.jobs;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.OjsException;
import dev.steadfast.http.Timestamps;
import dev.steadfast.model.StateAndOwner;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Why a guarded transition wrote nothing. The transition statements change a job only when its state, lease
 * holder and lease expiry allow the operation; when one matches no row, this reads the job once and names the
 * reason, so every operation refuses with the same words.
 */
public final class Refusals {

    private Refusals() {
    }

    /**
     * 404 when the job does not exist, 409 naming its state when the state machine refuses the operation, 409 when
     * its lease ran out (at {@code now}, even if the lease reaper has not handled it yet), and a 409 about the lease
     * holder otherwise.
     */
    public static Uni<OjsException> refusal(JobStore store, UUID id, Operation op, Instant now) {
        return store.stateOf(id).map(o -> {
            OjsException e = of(id, op, o.orElse(null), null, now);
            return e != null ? e : heldBy(id, o.get());
        });
    }

    /**
     * Why the operation of {@code worker} (null: whoever holds the lease) on job {@code id} was refused, from the job
     * as the refusing statement saw it ({@code job} null: no such job), by the guard's own rules: the state
     * machine, the lease's end at {@code now} and its holder. Null when those facts allow the operation: the job
     * changed after the statement's snapshot, and only a fresh read ({@link #refusal}) can say why.
     */
    public static OjsException of(UUID id, Operation op, StateAndOwner job, String worker, Instant now) {
        if (job == null) {
            return OjsException.notFound("job", id.toString());
        }
        try {
            JobStateMachine.check(op, job.state(), id.toString());
        } catch (OjsException e) {
            return e;
        }
        if (job.leaseExpiresAt() != null && !job.leaseExpiresAt().isAfter(now)) {
            Map<String, Object> d = details(id, job);
            d.put("lease_expires_at", Timestamps.format(job.leaseExpiresAt()));
            return new OjsException(ErrorCode.CONFLICT, "The job's lease ran out at "
                    + Timestamps.format(job.leaseExpiresAt()) + "; the attempt counts as failed and the job will "
                    + "be retried according to its policy.", d);
        }
        if (worker != null && job.leaseOwner() != null && !job.leaseOwner().equals(worker)) {
            return heldBy(id, job);
        }
        return null;
    }

    private static OjsException heldBy(UUID id, StateAndOwner job) {
        return new OjsException(ErrorCode.CONFLICT,
                "The job's lease is held by worker '" + job.leaseOwner() + "', not by the worker in the request.",
                details(id, job));
    }

    private static Map<String, Object> details(UUID id, StateAndOwner job) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("job_id", id.toString());
        d.put("current_state", job.state().wire());
        d.put("lease_owner", job.leaseOwner());
        return d;
    }

    /** {@link #refusal} as a failure. */
    public static Uni<Void> explain(JobStore store, UUID id, Operation op, Instant now) {
        return refusal(store, id, op, now).map(e -> {
            throw e;
        });
    }
}
