package dev.steadfast.jobs;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.OjsException;
import dev.steadfast.http.Timestamps;
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
            if (o.isEmpty()) {
                return OjsException.notFound("job", id.toString());
            }
            JobStore.StateAndOwner s = o.get();
            try {
                JobStateMachine.check(op, s.state(), id.toString());
            } catch (OjsException e) {
                return e;
            }
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("job_id", id.toString());
            d.put("current_state", s.state().wire());
            d.put("lease_owner", s.leaseOwner());
            if (s.leaseExpiresAt() != null && !s.leaseExpiresAt().isAfter(now)) {
                d.put("lease_expires_at", Timestamps.format(s.leaseExpiresAt()));
                return new OjsException(ErrorCode.CONFLICT, "The job's lease ran out at "
                        + Timestamps.format(s.leaseExpiresAt()) + "; the attempt counts as failed and the job will "
                        + "be retried according to its policy.", d);
            }
            return new OjsException(ErrorCode.CONFLICT,
                    "The job's lease is held by worker '" + s.leaseOwner() + "', not by the worker in the request.", d);
        });
    }

    /** {@link #refusal} as a failure. */
    public static Uni<Void> explain(JobStore store, UUID id, Operation op, Instant now) {
        return refusal(store, id, op, now).map(e -> {
            throw e;
        });
    }
}
