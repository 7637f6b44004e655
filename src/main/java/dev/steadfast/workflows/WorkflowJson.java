package dev.steadfast.workflows;

import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.Outcome;
import dev.steadfast.domain.workflow.WorkflowReport;
import dev.steadfast.domain.workflow.WorkflowState;
import dev.steadfast.domain.workflow.WorkflowType;
import dev.steadfast.http.Timestamps;
import dev.steadfast.model.MemberRow;
import dev.steadfast.model.WorkflowView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A workflow on the wire (ojs-workflows.md 3 and 11): id, type, name, state, the members under {@code steps}
 * (chain) or {@code jobs} (group, batch) and a batch's {@code callbacks}, each with its job id, job state and, once
 * finished, result or error (a nested workflow with its {@code workflow_id} instead); {@code parent_id} for a
 * nested workflow; counters both as the conformance suite reads them ({@code steps_total},
 * {@code jobs_completed}, ...: this workflow's own members, a nested workflow counting as one) and as the spec's
 * {@code metadata} (ojs-workflows.md 3.3: {@code created_at}, {@code started_at}, {@code completed_at},
 * {@code job_count}, {@code completed_count}, {@code failed_count} over every job of the tree, nested ones
 * included); on failure the error report of 9.6 both beside them and in {@code metadata}.
 */
final class WorkflowJson {

    private WorkflowJson() {
    }

    /** The answer of create, get and cancel (see {@link WorkflowBody.Answer}); the Java SDK accepts either shape. */
    static WorkflowBody.Answer wrap(WorkflowView v) {
        return WorkflowBody.Answer.of(view(v));
    }

    static WorkflowBody view(WorkflowView v) {
        var w = v.workflow();
        WorkflowReport report = v.report();
        List<WorkflowBody.Member> steps = new ArrayList<>();
        Map<String, WorkflowBody.Member> callbacks = new LinkedHashMap<>();
        List<Outcome> stepOutcomes = new ArrayList<>();
        int completed = 0, failed = 0;
        List<String> keys = v.members().stream().filter(m -> m.role() == MemberRole.STEP && m.stepKey() != null)
                .map(MemberRow::stepKey).toList();
        for (MemberRow m : v.members()) {
            Outcome o = outcome(m);
            if (m.role() == MemberRole.STEP) {
                steps.add(keyed(member(m), m, w.type(), keys));
                stepOutcomes.add(o);
                completed += o == Outcome.COMPLETED ? 1 : 0;
                failed += o == Outcome.FAILED ? 1 : 0;
            } else {
                callbacks.put(m.role().wire(), keyed(member(m), m, w.type(), keys));
            }
        }
        int total = steps.size();
        boolean chain = w.type() == WorkflowType.CHAIN;
        List<WorkflowBody.Member> all = null;
        if (!keys.isEmpty() && !chain) {
            // created in the binding's shape: every member under steps too, as it was sent (callbacks included)
            all = new ArrayList<>(steps);
            all.addAll(callbacks.values());
        }
        WorkflowBody.ErrorReport errors = errorReport(w.id(), w.type(), w.state(), stepOutcomes, report);
        // 3.3: completed_at when the workflow reached a terminal state, cancelled included (11.3 adds cancelled_at)
        WorkflowBody.Metadata meta = new WorkflowBody.Metadata(Timestamps.format(w.createdAt()),
                Timestamps.format(report.startedAt()),
                Timestamps.format(w.completedAt() != null ? w.completedAt() : w.cancelledAt()),
                Timestamps.format(w.cancelledAt()), report.jobCount(), report.completedCount(),
                report.failedCount(), errors);
        return new WorkflowBody(w.id().toString(), w.type().wire(), w.name(), w.state().wire(),
                w.parentId() == null ? null : w.parentId().toString(), total, completed, failed, total, completed,
                failed, chain ? null : steps, w.type() == WorkflowType.BATCH ? callbacks : null,
                chain ? steps : all, errors, Timestamps.format(w.createdAt()), Timestamps.format(report.startedAt()),
                Timestamps.format(w.completedAt()), Timestamps.format(w.cancelledAt()), meta);
    }

    /**
     * ojs-workflows.md 9.6 (and 9.2, 9.5: recorded in the metadata): {@code failed_step_index} (a chain that
     * failed), {@code failed_job_ids} and {@code errors} over the whole tree, nested workflows' jobs and callbacks
     * included; present once a job failed for good, and always on a failed workflow. Each error carries the spec's
     * {@code job_id}, {@code code}, {@code message} and {@code attempt}, where the job sits ({@code workflow_id}
     * when it is in a nested workflow, {@code step_index} or {@code callback}) and the job's whole {@code error}.
     */
    private static WorkflowBody.ErrorReport errorReport(UUID self, WorkflowType type, WorkflowState state,
                                                        List<Outcome> stepOutcomes, WorkflowReport report) {
        Integer failedStep = type == WorkflowType.CHAIN ? WorkflowReport.failedStepIndex(state, stepOutcomes) : null;
        if (report.failures().isEmpty() && state != WorkflowState.FAILED && failedStep == null) {
            return WorkflowBody.ErrorReport.NONE;
        }
        List<WorkflowBody.Failure> errors = new ArrayList<>();
        for (WorkflowReport.Failure f : report.failures()) {
            boolean step = f.role() == MemberRole.STEP;
            errors.add(new WorkflowBody.Failure(f.jobId().toString(), f.code(), f.message(), f.attempt(),
                    f.workflowId().equals(self) ? null : f.workflowId().toString(), step ? f.position() : null,
                    step ? null : f.role().wire(), f.errorJson()));
        }
        return new WorkflowBody.ErrorReport(failedStep,
                report.failures().stream().map(f -> f.jobId().toString()).toList(), errors);
    }

    /**
     * A workflow created in the binding's shape answers each member with the step id and depends_on it was given:
     * a chain step depends on the step before it, a group's or batch's job on nothing, a callback on every job.
     */
    private static WorkflowBody.Member keyed(WorkflowBody.Member s, MemberRow m, WorkflowType type,
                                             List<String> keys) {
        if (m.stepKey() == null) {
            return s;
        }
        if (m.role() != MemberRole.STEP) {
            return s.keyed(m.stepKey(), keys);
        } else if (type == WorkflowType.CHAIN && m.position() > 0 && m.position() <= keys.size()) {
            return s.keyed(m.stepKey(), List.of(keys.get(m.position() - 1)));
        }
        return s.keyed(m.stepKey(), List.of());
    }

    private static WorkflowBody.Member member(MemberRow m) {
        Integer index = m.role() == MemberRole.STEP ? m.position() : null;
        if (m.workflow()) {
            return new WorkflowBody.Member(null, index, m.type(), stepState(m), m.jobId().toString(), null, null,
                    null, null, Timestamps.format(m.completedAt()), null, null, null);
        }
        return new WorkflowBody.Member(null, index, m.type(), stepState(m), null, m.jobId().toString(),
                m.jobState() == null ? null : m.jobState().wire(), m.queue(), Timestamps.format(m.startedAt()),
                Timestamps.format(m.completedAt()), m.resultJson(),
                m.errorJson() != null && outcome(m) == Outcome.FAILED ? m.errorJson() : null, null);
    }

    /** ojs-workflows.md 4.4's step states: waiting, pending, active, completed, failed, cancelled. */
    private static String stepState(MemberRow m) {
        Outcome o = outcome(m);
        if (o != null) {
            return o.wire();
        }
        if (m.jobState() == null) {
            return "unknown";
        }
        return switch (m.jobState()) {
            case PENDING -> "waiting";
            case ACTIVE -> "active";
            default -> "pending";
        };
    }

    private static Outcome outcome(MemberRow m) {
        if (m.outcome() != null) {
            return m.outcome();
        }
        return m.jobState() == null ? null : Outcome.of(m.jobState()).orElse(null);
    }
}
