package dev.steadfast.service;

import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.WorkflowType;
import java.util.List;
import java.util.Map;

/**
 * A parsed workflow definition: its steps (a chain's in order, a group's or batch's jobs) and a batch's callbacks.
 */
public record WorkflowCommand(WorkflowType type, String name, List<EnqueueCommand> steps,
                              Map<MemberRole, EnqueueCommand> callbacks) {
}
