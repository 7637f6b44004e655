package dev.steadfast.model;

import dev.steadfast.domain.WorkerState;
import java.time.Instant;

/** What a worker last reported, with the operator's directive for it. */
public record WorkerReport(WorkerState state, Instant stateAt, String directive, Instant lastSeen, int activeJobs,
                           String hostname) {
}
