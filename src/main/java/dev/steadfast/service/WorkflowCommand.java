package dev.steadfast.service;

import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.WorkflowType;
import java.util.List;
import java.util.Map;

/**
 * A parsed workflow definition: its steps (a chain's in order, a group's or batch's jobs) and a batch's callbacks;
 * {@code stepKeys}, when the workflow came in the binding's shape (steps with ids and depends_on), holds the
 * client's step id of each step in the same order, else null.
 */
public record WorkflowCommand(WorkflowType type, String name, List<EnqueueCommand> steps,
                              Map<MemberRole, EnqueueCommand> callbacks, List<String> stepKeys) {

    public WorkflowCommand(WorkflowType type, String name, List<EnqueueCommand> steps,
                           Map<MemberRole, EnqueueCommand> callbacks) {
        this(type, name, steps, callbacks, null);
    }
}
