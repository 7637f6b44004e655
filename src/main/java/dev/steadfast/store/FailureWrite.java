package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import java.time.Instant;

/**
 * The outcome of a failed attempt, decided outside the store, ready to be written.
 *
 * @param state      retryable, discarded, or available (handed back without counting as a failure)
 * @param runAt      when the job may next be claimed; null when discarded
 * @param errorJson  the current error (null when the attempt did not fail, e.g. a requeue)
 * @param errorsJson the whole error history after this failure
 * @param snoozes    attempts handed back without failing, including this one if it was
 */
public record FailureWrite(JobState state, Instant runAt, Long retryDelayMs, String errorJson, String errorsJson,
                           boolean deadLetter, int snoozes, Instant at) {
}
