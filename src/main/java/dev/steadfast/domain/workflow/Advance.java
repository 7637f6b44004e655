package dev.steadfast.domain.workflow;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a workflow does now, decided by {@link WorkflowRules#advance} without I/O.
 *
 * @param state    the workflow's state afterwards
 * @param outcomes outcomes to record (each member at most once in its life)
 * @param activate pending jobs to make available, each with the jobs whose results it receives
 * @param cancel   pending jobs to cancel (their outcome, cancelled, is in {@code outcomes})
 */
public record Advance(WorkflowState state, Map<UUID, Outcome> outcomes, List<Activation> activate, List<UUID> cancel) {

    /** A job to enqueue and the jobs, in order, whose results become its {@code parent_results}. */
    public record Activation(UUID jobId, List<UUID> parents) {
    }

    public boolean changesNothing(WorkflowState before) {
        return state == before && outcomes.isEmpty() && activate.isEmpty() && cancel.isEmpty();
    }
}
