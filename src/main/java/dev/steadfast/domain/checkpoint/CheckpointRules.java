package dev.steadfast.domain.checkpoint;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Checkpoints (ojs-durable-execution.md): the last state a job's worker saved, kept across attempts and runs, handed
 * to the next attempt on FETCH.
 *
 * <ul>
 *   <li>Only the worker of an active job saves one (4.2, DUR-007): the job must be active, its lease not run out, and
 *       held by the named worker when the request names one; anything else is 409 (a job that does not exist,
 *       404).</li>
 *   <li>The state is any JSON value, stored as given; state and metadata together hold at most {@link #MAX_BYTES}
 *       bytes of JSON text (9.1, DUR-006), else 413.</li>
 *   <li>The sequence only grows (DUR-008): a save after a delete continues it.</li>
 *   <li>A finished job has no checkpoint (5.2, DUR-005): once completed, cancelled or discarded, it is not shown
 *       (nor handed out) and the pruner removes it; a dead letter's is kept hidden until an operator retries the job
 *       as a new run (6.3), which shows it again.</li>
 * </ul>
 */
public final class CheckpointRules {

    /** 1 MiB (9.1). */
    public static final long MAX_BYTES = 1_048_576;

    private CheckpointRules() {
    }

    /** Whether a job in {@code state} shows the checkpoint stored for it. */
    public static boolean shown(JobState state) {
        return !state.terminal();
    }

    /** 413 when the state and metadata ({@code bytes} of UTF-8 JSON text together) are over the limit. */
    public static void checkSize(long bytes) {
        if (bytes > MAX_BYTES) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("field", "state");
            d.put("limit_bytes", MAX_BYTES);
            d.put("received_bytes", bytes);
            throw new OjsException(ErrorCode.PAYLOAD_TOO_LARGE, "The checkpoint is " + bytes + " bytes of JSON; the"
                    + " limit is " + MAX_BYTES + " (keep large state elsewhere and checkpoint a reference to it).", d);
        }
    }

    /**
     * Why a save for job {@code id}, found in {@code state} with its lease held by {@code owner} until
     * {@code leaseEnd}, was refused at {@code now} for {@code worker} (null: not named): always a 409.
     */
    public static OjsException refusal(String id, JobState state, String owner, Instant leaseEnd, String worker,
                                       Instant now) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("job_id", id);
        d.put("current_state", state.wire());
        String message;
        if (state != JobState.ACTIVE) {
            message = "A checkpoint is saved only for an active job; job '" + id + "' is " + state.wire() + ".";
        } else if (leaseEnd == null || !leaseEnd.isAfter(now)) {
            d.put("reason", "lease_expired");
            message = "The lease of job '" + id + "' ran out; its checkpoint belongs to the attempt that holds it"
                    + " next.";
        } else {
            d.put("reason", "not_lease_holder");
            d.put("worker_id", worker);
            message = "Job '" + id + "' is held by another worker; only the lease holder saves its checkpoint.";
        }
        return new OjsException(ErrorCode.CONFLICT, message, d);
    }
}
