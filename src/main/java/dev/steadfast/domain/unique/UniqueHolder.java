package dev.steadfast.domain.unique;

import dev.steadfast.domain.JobState;
import java.time.Instant;
import java.util.UUID;

/**
 * A job that already carries a uniqueness key, as the conflict decision sees it.
 *
 * @param runAt when a scheduled job is due (what {@code replace_except_schedule} keeps); null otherwise
 */
public record UniqueHolder(UUID id, JobState state, Instant createdAt, Instant runAt) {
}
