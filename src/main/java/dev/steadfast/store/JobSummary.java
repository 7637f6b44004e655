package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One line of a job listing: the envelope's small fields, the start of the args' JSON text (a preview, cut at
 * {@link JobQueryStore#ARGS_PREVIEW} characters) and the last error's type and message (cut to a few hundred
 * characters), without meta or the error history, so a page of fifty stays small however large the jobs are.
 */
public record JobSummary(UUID id, String type, String queue, JobState state, int priority, int attempt,
                         int maxAttempts, List<String> tags, Instant createdAt, Instant runAt, boolean deadLetter,
                         int run, String errorType, String errorMessage, String argsPreview) {
}
