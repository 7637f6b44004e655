package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.errors.ErrorGroupKey;
import java.time.Instant;
import java.util.UUID;

/**
 * The outcome of one failed attempt, decided outside the store, ready to be written: it applies only while the
 * job is still active in that attempt.
 *
 * @param attempt   the attempt the decision was made for (the write's guard)
 * @param workerId  the worker that reported the failure, when it named itself (null: the lease reaper, or a
 *                  worker without an id)
 * @param state     retryable, available (due at once) or discarded
 * @param runAt     when the job may next be claimed; null when discarded
 * @param errorJson the error entry appended to the history, which also becomes the job's current error
 * @param group     the error group the failure is counted in (null: counted in none)
 */
public record FailureWrite(UUID jobId, int attempt, String workerId, JobState state, Instant runAt,
                           Long retryDelayMs, String errorJson, boolean deadLetter, Instant at, ErrorGroupKey group) {
}
