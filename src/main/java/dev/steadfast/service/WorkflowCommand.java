package dev.steadfast.service;

import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.WorkflowType;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A parsed workflow definition: its steps (a chain's in order, a group's or batch's jobs) and a batch's callbacks.
 *
 * @param delays each member's {@code options.delay} / {@code delay_ms} by its slot (absent when none): for a
 *               member that waits (a chain step after the first, a callback) it counts from the moment the member
 *               is enqueued, not from the workflow's creation
 */
public record WorkflowCommand(WorkflowType type, String name, List<EnqueueCommand> steps,
                              Map<MemberRole, EnqueueCommand> callbacks, Map<Slot, Duration> delays) {

    public WorkflowCommand(WorkflowType type, String name, List<EnqueueCommand> steps,
                           Map<MemberRole, EnqueueCommand> callbacks) {
        this(type, name, steps, callbacks, Map.of());
    }

    /** A member's place: its role and position (a step's index; 0 for a callback). */
    public record Slot(MemberRole role, int position) {
    }

    /** The delay given for the member in {@code role} at {@code position}, or null. */
    public Duration delay(MemberRole role, int position) {
        return delays.get(new Slot(role, position));
    }
}
