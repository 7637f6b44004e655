package dev.steadfast.grpc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.model.MemberRow;
import dev.steadfast.model.WorkflowRow;
import dev.steadfast.model.WorkflowView;
import dev.steadfast.workflows.WorkflowResource;
import dev.steadfast.workflows.WorkflowService;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Locale;
import java.util.UUID;
import org.openjobspec.ojs.v1.CreateWorkflowRequest;
import org.openjobspec.ojs.v1.Workflow;
import org.openjobspec.ojs.v1.WorkflowState;
import org.openjobspec.ojs.v1.WorkflowStep;
import org.openjobspec.ojs.v1.WorkflowStepState;
import org.openjobspec.ojs.v1.WorkflowStepStatus;

/**
 * The binding's workflow RPCs (ojs-grpc-binding.md 6.9) for {@link OjsGrpcService}: CreateWorkflow's steps become
 * the HTTP binding's workflow body ({@code name}, {@code steps} with {@code id}, {@code type}, {@code args},
 * {@code depends_on} and {@code options}), read by {@link WorkflowResource#command} (a chain, group or batch, as
 * over HTTP) and created by {@link WorkflowService}; a workflow answers with its members as steps, each with its
 * job id and a step state from its job's state.
 */
@ApplicationScoped
class GrpcWorkflows {

    private final WorkflowService workflows;
    private final WorkflowResource reader;
    private final Messages messages;

    GrpcWorkflows(WorkflowService workflows, WorkflowResource reader, ObjectMapper json) {
        this.workflows = workflows;
        this.reader = reader;
        this.messages = new Messages(json);
    }

    Uni<Workflow> create(CreateWorkflowRequest r) {
        return Uni.createFrom().item(() -> {
            ObjectNode b = messages.object();
            if (!r.getName().isEmpty()) {
                b.put("name", r.getName());
            }
            ArrayNode steps = b.putArray("steps");
            for (WorkflowStep s : r.getStepsList()) {
                ObjectNode step = messages.push(s.getType(), s.getArgsList(), s.hasOptions() ? s.getOptions() : null);
                step.put("id", s.getId());
                ArrayNode deps = step.putArray("depends_on");
                s.getDependsOnList().forEach(deps::add);
                steps.add(step);
            }
            return reader.command(Body.of(b));
        }).flatMap(workflows::create).map(GrpcWorkflows::workflow);
    }

    Uni<Workflow> get(String id) {
        return Uni.createFrom().item(() -> workflowId(id)).flatMap(workflows::get).map(GrpcWorkflows::workflow);
    }

    Uni<Workflow> cancel(String id) {
        return Uni.createFrom().item(() -> workflowId(id)).flatMap(workflows::cancel).map(GrpcWorkflows::workflow);
    }

    /** Required; anything that is not a UUID cannot name a workflow (404, as over HTTP). */
    private static UUID workflowId(String id) {
        if (id.isEmpty()) {
            throw OjsException.invalidField("workflow_id", "The 'workflow_id' field is required.", "uuid", "missing");
        }
        return Params.uuid(id).orElseThrow(() -> OjsException.notFound("workflow", id));
    }

    private static Workflow workflow(WorkflowView v) {
        WorkflowRow w = v.workflow();
        Workflow.Builder b = Workflow.newBuilder().setId(w.id().toString()).setState(state(w.state()));
        if (w.name() != null) {
            b.setName(w.name());
        }
        if (w.createdAt() != null) {
            b.setCreatedAt(ProtoJson.timestamp(w.createdAt()));
        }
        if (w.completedAt() != null) {
            b.setCompletedAt(ProtoJson.timestamp(w.completedAt()));
        }
        for (MemberRow m : v.members()) {
            WorkflowStepStatus.Builder s = WorkflowStepStatus.newBuilder()
                    .setId(m.stepKey() != null ? m.stepKey() : m.role().wire() + "-" + m.position())
                    .setState(stepState(m.jobState()));
            if (m.type() != null) {
                s.setType(m.type());
            }
            if (m.jobId() != null) {
                s.setJobId(m.jobId().toString());
            }
            b.addSteps(s);
        }
        return b.build();
    }

    /** The binding has no "pending" workflow: one whose first jobs wait to run is running. */
    private static WorkflowState state(dev.steadfast.domain.workflow.WorkflowState s) {
        return s == dev.steadfast.domain.workflow.WorkflowState.PENDING ? WorkflowState.WORKFLOW_STATE_RUNNING
                : WorkflowState.valueOf("WORKFLOW_STATE_" + s.name().toUpperCase(Locale.ROOT));
    }

    /** A member waiting for its dependencies holds a pending job (or none yet); a discarded job is a failed step. */
    private static WorkflowStepState stepState(JobState s) {
        if (s == null) {
            return WorkflowStepState.WORKFLOW_STEP_STATE_WAITING;
        }
        return switch (s) {
            case PENDING -> WorkflowStepState.WORKFLOW_STEP_STATE_WAITING;
            case SCHEDULED, AVAILABLE, RETRYABLE -> WorkflowStepState.WORKFLOW_STEP_STATE_PENDING;
            case ACTIVE -> WorkflowStepState.WORKFLOW_STEP_STATE_ACTIVE;
            case COMPLETED -> WorkflowStepState.WORKFLOW_STEP_STATE_COMPLETED;
            case DISCARDED -> WorkflowStepState.WORKFLOW_STEP_STATE_FAILED;
            case CANCELLED -> WorkflowStepState.WORKFLOW_STEP_STATE_CANCELLED;
        };
    }
}
