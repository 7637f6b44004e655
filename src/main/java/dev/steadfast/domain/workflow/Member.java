package dev.steadfast.domain.workflow;

import dev.steadfast.domain.JobState;
import java.util.UUID;

/**
 * One job of a workflow as the rules see it.
 *
 * @param position the step's index (chain order, or the job's index in a group/batch); 0 for a callback
 * @param jobState the job's state now (null when the job no longer exists, e.g. pruned)
 * @param recorded the outcome the workflow already accounted for, or null
 */
public record Member(UUID jobId, MemberRole role, int position, JobState jobState, Outcome recorded) {
}
