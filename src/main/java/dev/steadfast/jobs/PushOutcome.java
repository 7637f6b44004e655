package dev.steadfast.jobs;

import dev.steadfast.domain.OjsException;
import dev.steadfast.model.JobRow;

/** What became of one job of a PUSH: created, deduplicated onto an existing job (unique ignore), or refused. */
public sealed interface PushOutcome {

    /**
     * {@code pressure}: the highest depth/bound of the bounded queues it went into, when one is past its warning
     * threshold (ojs-backpressure.md 7.3), else null.
     */
    record Created(JobRow job, Double pressure) implements PushOutcome {
        public Created(JobRow job) {
            this(job, null);
        }
    }

    /** {@code on_conflict: ignore}: nothing was inserted; {@code existing} holds the uniqueness key. */
    record Deduplicated(JobRow existing) implements PushOutcome {
    }

    record Refused(OjsException error) implements PushOutcome {
    }
}
