package dev.steadfast.console.jobs;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.Outcome;
import dev.steadfast.model.MemberRow;
import dev.steadfast.model.WorkflowView;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The job page's workflow view: the workflow a job belongs to, its state, and every member (steps in order, then
 * a batch's callbacks) with its state and a link to its job, the job being shown marked.
 */
public record WorkflowPanel(String id, String type, String name, String state, int completed, int failed,
                            int total, List<Line> members) {

    /**
     * One member: {@code label} "step 2" / "job 2" / "on_failure"; {@code state} its job's state;
     * {@code workflow} for a nested workflow ({@code jobId} is then its id, {@code type} chain, group or batch).
     */
    public record Line(String label, String type, String state, String jobId, boolean current, boolean workflow) {
    }

    static WorkflowPanel of(WorkflowView v, UUID shown) {
        List<Line> lines = new ArrayList<>();
        int completed = 0, failed = 0, total = 0;
        String noun = v.workflow().type().wire().equals("chain") ? "step " : "job ";
        for (MemberRow m : v.members()) {
            Outcome o = m.outcome() != null ? m.outcome()
                    : m.jobState() == null ? null : Outcome.of(m.jobState()).orElse(null);
            if (m.role() == MemberRole.STEP) {
                total++;
                completed += o == Outcome.COMPLETED ? 1 : 0;
                failed += o == Outcome.FAILED ? 1 : 0;
            }
            String state = m.workflow() ? (o == null ? (m.jobState() == JobState.PENDING
                    ? "pending" : "running") : o.wire())
                    : m.jobState() == null ? (o == null ? "pruned" : o.wire()) : m.jobState().wire();
            lines.add(new Line(m.role() == MemberRole.STEP ? noun + m.position() : m.role().wire(),
                    m.type() == null ? "—" : m.type(), state, m.jobId().toString(), m.jobId().equals(shown),
                    m.workflow()));
        }
        var w = v.workflow();
        return new WorkflowPanel(w.id().toString(), w.type().wire(), w.name(), w.state().wire(), completed, failed,
                total, lines);
    }
}
