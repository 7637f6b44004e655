package dev.steadfast.console.workflows;

import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.model.MemberRow;
import dev.steadfast.model.WorkflowView;
import dev.steadfast.workflows.WorkflowService;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A workflow and every workflow nested in it, read before the page renders (at most three levels: one read per
 * workflow of the tree), and turned into the shapes {@link WorkflowLayout} places.
 */
record WorkflowTree(WorkflowView view, Map<UUID, WorkflowTree> nested) {

    static Uni<Optional<WorkflowTree>> load(WorkflowService workflows, UUID id) {
        return workflows.find(id).flatMap(o -> {
            if (o.isEmpty()) {
                return Uni.createFrom().item(Optional.<WorkflowTree>empty());
            }
            Map<UUID, WorkflowTree> nested = new HashMap<>();
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (MemberRow m : o.get().members()) {
                if (m.workflow()) {
                    chain = chain.flatMap(x -> load(workflows, m.jobId()).invoke(t -> t.ifPresent(
                            tree -> nested.put(m.jobId(), tree))).replaceWithVoid());
                }
            }
            return chain.map(x -> Optional.of(new WorkflowTree(o.get(), nested)));
        });
    }

    /** The label of a member in its workflow: "step 2" in a chain, "job 2" in a group or batch, or its callback. */
    static String role(WorkflowView v, MemberRow m) {
        if (m.role() != MemberRole.STEP) {
            return m.role().wire();
        }
        return (v.workflow().type().wire().equals("chain") ? "step " : "job ") + m.position();
    }

    /** A member job's state to show: its job's, or "pruned" once the job is gone. */
    static String state(MemberRow m) {
        return m.jobState() == null ? "pruned" : m.jobState().wire();
    }

    WorkflowLayout.Flow shape() {
        var w = view.workflow();
        List<WorkflowLayout.Shape> members = new ArrayList<>();
        List<WorkflowLayout.Job> callbacks = new ArrayList<>();
        for (MemberRow m : view.members()) {
            WorkflowTree inner = m.workflow() ? nested.get(m.jobId()) : null;
            if (m.workflow() && inner != null) {
                members.add(inner.shape());
            } else if (m.role() == MemberRole.STEP) {
                members.add(job(m));
            } else {
                callbacks.add(job(m));
            }
        }
        return new WorkflowLayout.Flow(w.id().toString(), w.type().wire(), w.name(), w.state().wire(), members,
                callbacks);
    }

    private WorkflowLayout.Job job(MemberRow m) {
        return new WorkflowLayout.Job(m.jobId().toString(), role(view, m), m.type() == null ? "—" : m.type(),
                m.workflow() ? "pruned" : state(m));
    }

    /** Every member of the tree in order, nested workflows' members after their own line, for the page's table. */
    void rows(String prefix, List<WorkflowPageView.Row> out) {
        for (MemberRow m : view.members()) {
            String label = prefix + role(view, m);
            WorkflowTree inner = m.workflow() ? nested.get(m.jobId()) : null;
            if (m.workflow()) {
                out.add(new WorkflowPageView.Row(label, m.type(), inner == null ? "pruned"
                        : inner.view.workflow().state().wire(), m.jobId().toString(), true));
                if (inner != null) {
                    inner.rows(label + " › ", out);
                }
            } else {
                out.add(new WorkflowPageView.Row(label, m.type() == null ? "—" : m.type(), state(m),
                        m.jobId().toString(), false));
            }
        }
    }
}
