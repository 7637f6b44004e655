package dev.steadfast.workflows;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * A workflow on the wire, as {@link WorkflowJson} builds it: fields that do not apply are left out; the members
 * are under {@code steps} (chain, or every member when created in the binding's shape) or {@code jobs} (group,
 * batch), a batch's under {@code callbacks}; the error report of ojs-workflows.md 9.6 sits both beside the
 * counters and in {@code metadata}.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
record WorkflowBody(String id, String type, String name, String state, String parentId, int stepsTotal,
                    int stepsCompleted, int stepsFailed, int jobsTotal, int jobsCompleted, int jobsFailed,
                    List<Member> jobs, Map<String, Member> callbacks, List<Member> steps,
                    @JsonUnwrapped ErrorReport errorReport, String createdAt, String startedAt, String completedAt,
                    String cancelledAt, Metadata metadata) {

    /**
     * The answer of create, get and cancel: the workflow under {@code workflow}, and its summary also at the top
     * level, where the official JavaScript SDK reads its {@code WorkflowStatus}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Answer(WorkflowBody workflow, String id, String type, String name, String state, Metadata metadata) {

        static Answer of(WorkflowBody w) {
            return new Answer(w, w.id(), w.type(), w.name(), w.state(), w.metadata());
        }
    }

    /**
     * One member: a job ({@code job_id}, its state, result or error) or a nested workflow ({@code workflow_id});
     * {@code id} and {@code depends_on} when the workflow was created in the binding's shape.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Member(String id, Integer index, String type, String state, String workflowId, String jobId,
                  String jobState, String queue, String startedAt, String completedAt, @JsonRawValue String result,
                  @JsonRawValue String error, List<String> dependsOn) {

        Member keyed(String key, List<String> depends) {
            return new Member(key, index, type, state, workflowId, jobId, jobState, queue, startedAt, completedAt,
                    result, error, depends);
        }
    }

    /** ojs-workflows.md 3.3's metadata, with the error report when there is one. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Metadata(String createdAt, String startedAt, String completedAt, String cancelledAt, int jobCount,
                    int completedCount, int failedCount, @JsonUnwrapped ErrorReport errorReport) {
    }

    /** ojs-workflows.md 9.6; all fields left out when nothing failed (see {@link WorkflowJson}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ErrorReport(Integer failedStepIndex, List<String> failedJobIds, List<Failure> errors) {

        static final ErrorReport NONE = new ErrorReport(null, null, null);
    }

    /** One failed job of the tree; {@code code}, {@code message}, {@code attempt} and {@code error} always written. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Failure(String jobId, String code, String message, Integer attempt,
                   @JsonInclude(JsonInclude.Include.NON_NULL) String workflowId,
                   @JsonInclude(JsonInclude.Include.NON_NULL) Integer stepIndex,
                   @JsonInclude(JsonInclude.Include.NON_NULL) String callback, @JsonRawValue String error) {
    }
}
