package dev.steadfast.model;

import dev.steadfast.domain.workflow.WorkflowState;
import dev.steadfast.domain.workflow.WorkflowType;
import java.time.Instant;

/**
 * Which workflows a listing shows ({@code GET /ojs/v1/workflows}, the console's workflows page); every field is
 * optional (null means "any").
 *
 * @param name           a case-insensitive substring of the workflow's name
 * @param createdAfter   created at or after
 * @param createdBefore  created before
 * @param nested         true to list workflows nested in others too; false lists top-level workflows only
 */
public record WorkflowFilter(WorkflowState state, WorkflowType type, String name, Instant createdAfter,
                             Instant createdBefore, boolean nested) {

    public static final WorkflowFilter ALL = new WorkflowFilter(null, null, null, null, null, false);
}
