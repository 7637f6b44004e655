package dev.steadfast.model;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.Outcome;
import java.time.Instant;
import java.util.UUID;

/**
 * A member as GET shows it; job fields are null when the job no longer exists. For a nested workflow
 * ({@code workflow}): {@code jobId} is its id, {@code type} its type and {@code jobState} the job state it
 * stands for (WorkflowState.asMemberState).
 */
public record MemberRow(UUID jobId, MemberRole role, int position, Outcome outcome, JobState jobState,
                        String type, String queue, Integer attempt, String resultJson, String errorJson,
                        Instant startedAt, Instant completedAt, boolean workflow, String stepKey) {
}
