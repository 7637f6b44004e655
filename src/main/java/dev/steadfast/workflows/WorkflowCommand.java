package dev.steadfast.workflows;

import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.WorkflowType;
import dev.steadfast.jobs.EnqueueCommand;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A parsed workflow definition: its steps (a chain's in order, a group's or batch's jobs), each a job or a nested
 * workflow (ojs-workflows.md 10), and a batch's callbacks.
 *
 * @param delays each member's {@code options.delay} / {@code delay_ms} by its slot (absent when none): for a
 *               member that waits (a chain step after the first, a callback) it counts from the moment the member
 *               is enqueued, not from the workflow's creation
 * @param stepKeys when the workflow came in the binding's shape (steps with ids and depends_on): the client's
 *               step id of each step, in the same order as {@code steps}; else null
 */
public record WorkflowCommand(WorkflowType type, String name, List<Step> steps,
                              Map<MemberRole, EnqueueCommand> callbacks, Map<Slot, Duration> delays,
                              List<String> stepKeys) {

    public WorkflowCommand(WorkflowType type, String name, List<Step> steps, Map<MemberRole, EnqueueCommand> callbacks,
                           Map<Slot, Duration> delays) {
        this(type, name, steps, callbacks, delays, null);
    }

    /** The client's id of step {@code i}, or of a callback in {@code role}, when it gave ids; else null. */
    public String stepKey(MemberRole role, int i) {
        return stepKeys == null ? null : role == MemberRole.STEP ? stepKeys.get(i) : role.wire();
    }

    /** A step: a job, or a workflow nested in this one. */
    public sealed interface Step permits Job, Nested {
    }

    public record Job(EnqueueCommand job) implements Step {
    }

    public record Nested(WorkflowCommand workflow) implements Step {
    }

    /** A member's place: its role and position (a step's index; 0 for a callback). */
    public record Slot(MemberRole role, int position) {
    }

    /** The delay given for the member in {@code role} at {@code position}, or null. */
    public Duration delay(MemberRole role, int position) {
        return delays.get(new Slot(role, position));
    }

    /** The jobs of this workflow and every workflow nested in it, callbacks included. */
    public int jobCount() {
        int n = callbacks.size();
        for (Step s : steps) {
            n += s instanceof Nested nested ? nested.workflow().jobCount() : 1;
        }
        return n;
    }
}
