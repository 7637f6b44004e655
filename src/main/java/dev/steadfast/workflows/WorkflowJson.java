package dev.steadfast.workflows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.Outcome;
import dev.steadfast.domain.workflow.WorkflowReport;
import dev.steadfast.domain.workflow.WorkflowState;
import dev.steadfast.domain.workflow.WorkflowType;
import dev.steadfast.http.Timestamps;
import dev.steadfast.store.workflows.WorkflowStore.MemberRow;
import dev.steadfast.store.workflows.WorkflowStore.WorkflowView;
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

    /**
     * The answer of create, get and cancel: the workflow under {@code workflow}, as the binding (section 14) and
     * the conformance suite read it, and its summary ({@code id}, {@code type}, {@code name}, {@code state},
     * {@code metadata}) also at the top level, where the official JavaScript SDK reads its {@code WorkflowStatus}.
     * The Java SDK accepts either shape.
     */
    static Map<String, Object> wrap(ObjectMapper m, WorkflowView v) {
        Map<String, Object> wf = view(v);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("workflow", wf);
        for (String key : SUMMARY) {
            put(out, key, wf.get(key));
        }
        return out;
    }

    private static final List<String> SUMMARY = List.of("id", "type", "name", "state", "metadata");

    static Map<String, Object> view(WorkflowView v) {
        var w = v.workflow();
        WorkflowReport report = v.report();
        List<Map<String, Object>> steps = new ArrayList<>();
        Map<String, Map<String, Object>> callbacks = new LinkedHashMap<>();
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
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", w.id().toString());
        out.put("type", w.type().wire());
        if (w.name() != null) {
            out.put("name", w.name());
        }
        out.put("state", w.state().wire());
        if (w.parentId() != null) {
            out.put("parent_id", w.parentId().toString());
        }
        out.put("steps_total", total);
        out.put("steps_completed", completed);
        out.put("steps_failed", failed);
        out.put("jobs_total", total);
        out.put("jobs_completed", completed);
        out.put("jobs_failed", failed);
        out.put(w.type() == WorkflowType.CHAIN ? "steps" : "jobs", steps);
        if (w.type() == WorkflowType.BATCH) {
            out.put("callbacks", callbacks);
        }
        if (!keys.isEmpty() && w.type() != WorkflowType.CHAIN) {
            // created in the binding's shape: every member under steps too, as it was sent (callbacks included)
            List<Map<String, Object>> all = new ArrayList<>(steps);
            all.addAll(callbacks.values());
            out.put("steps", all);
        }
        Map<String, Object> errors = errorReport(w.id(), w.type(), w.state(), stepOutcomes, report);
        out.putAll(errors);
        out.put("created_at", Timestamps.format(w.createdAt()));
        put(out, "started_at", Timestamps.format(report.startedAt()));
        put(out, "completed_at", Timestamps.format(w.completedAt()));
        put(out, "cancelled_at", Timestamps.format(w.cancelledAt()));
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("created_at", Timestamps.format(w.createdAt()));
        put(meta, "started_at", Timestamps.format(report.startedAt()));
        // 3.3: when the workflow reached a terminal state, cancelled included (11.3 adds cancelled_at)
        put(meta, "completed_at", Timestamps.format(w.completedAt() != null ? w.completedAt() : w.cancelledAt()));
        put(meta, "cancelled_at", Timestamps.format(w.cancelledAt()));
        meta.put("job_count", report.jobCount());
        meta.put("completed_count", report.completedCount());
        meta.put("failed_count", report.failedCount());
        meta.putAll(errors);
        out.put("metadata", meta);
        return out;
    }

    /**
     * ojs-workflows.md 9.6 (and 9.2, 9.5: recorded in the metadata): {@code failed_step_index} (a chain that
     * failed), {@code failed_job_ids} and {@code errors} over the whole tree, nested workflows' jobs and callbacks
     * included; present once a job failed for good, and always on a failed workflow. Each error carries the spec's
     * {@code job_id}, {@code code}, {@code message} and {@code attempt}, where the job sits ({@code workflow_id}
     * when it is in a nested workflow, {@code step_index} or {@code callback}) and the job's whole {@code error}.
     */
    private static Map<String, Object> errorReport(UUID self, WorkflowType type, WorkflowState state,
                                                   List<Outcome> stepOutcomes, WorkflowReport report) {
        Map<String, Object> out = new LinkedHashMap<>();
        Integer failedStep = type == WorkflowType.CHAIN ? WorkflowReport.failedStepIndex(state, stepOutcomes) : null;
        if (report.failures().isEmpty() && state != WorkflowState.FAILED && failedStep == null) {
            return out;
        }
        if (failedStep != null) {
            out.put("failed_step_index", failedStep);
        }
        List<Map<String, Object>> errors = new ArrayList<>();
        for (WorkflowReport.Failure f : report.failures()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("job_id", f.jobId().toString());
            e.put("code", f.code());
            e.put("message", f.message());
            e.put("attempt", f.attempt());
            if (!f.workflowId().equals(self)) {
                e.put("workflow_id", f.workflowId().toString());
            }
            if (f.role() == MemberRole.STEP) {
                e.put("step_index", f.position());
            } else {
                e.put("callback", f.role().wire());
            }
            e.put("error", f.errorJson() == null ? null : new RawValue(f.errorJson()));
            errors.add(e);
        }
        out.put("failed_job_ids", report.failures().stream().map(f -> f.jobId().toString()).toList());
        out.put("errors", errors);
        return out;
    }

    /**
     * A workflow created in the binding's shape answers each member with the step id and depends_on it was given:
     * a chain step depends on the step before it, a group's or batch's job on nothing, a callback on every job.
     */
    private static Map<String, Object> keyed(Map<String, Object> s, MemberRow m, WorkflowType type, List<String> keys) {
        if (m.stepKey() == null) {
            return s;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", m.stepKey());
        out.putAll(s);
        if (m.role() != MemberRole.STEP) {
            out.put("depends_on", keys);
        } else if (type == WorkflowType.CHAIN && m.position() > 0 && m.position() <= keys.size()) {
            out.put("depends_on", List.of(keys.get(m.position() - 1)));
        } else {
            out.put("depends_on", List.of());
        }
        return out;
    }

    private static Map<String, Object> member(MemberRow m) {
        Map<String, Object> s = new LinkedHashMap<>();
        if (m.role() == MemberRole.STEP) {
            s.put("index", m.position());
        }
        put(s, "type", m.type());
        s.put("state", stepState(m));
        if (m.workflow()) {
            s.put("workflow_id", m.jobId().toString());
            put(s, "completed_at", Timestamps.format(m.completedAt()));
            return s;
        }
        s.put("job_id", m.jobId().toString());
        if (m.jobState() != null) {
            s.put("job_state", m.jobState().wire());
        }
        put(s, "queue", m.queue());
        put(s, "started_at", Timestamps.format(m.startedAt()));
        put(s, "completed_at", Timestamps.format(m.completedAt()));
        if (m.resultJson() != null) {
            s.put("result", new RawValue(m.resultJson()));
        }
        if (m.errorJson() != null && outcome(m) == Outcome.FAILED) {
            s.put("error", new RawValue(m.errorJson()));
        }
        return s;
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

    private static void put(Map<String, Object> v, String key, Object value) {
        if (value != null) {
            v.put(key, value);
        }
    }
}
