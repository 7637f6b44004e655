package dev.steadfast.service;

import dev.steadfast.domain.OjsException;
import dev.steadfast.store.JobRow;

/** What became of one job of a PUSH: created, deduplicated onto an existing job (unique ignore), or refused. */
public sealed interface PushOutcome {

    record Created(JobRow job) implements PushOutcome {
    }

    /** {@code on_conflict: ignore}: nothing was inserted; {@code existing} holds the uniqueness key. */
    record Deduplicated(JobRow existing) implements PushOutcome {
    }

    record Refused(OjsException error) implements PushOutcome {
    }
}
