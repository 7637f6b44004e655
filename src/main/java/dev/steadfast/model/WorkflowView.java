package dev.steadfast.model;

import dev.steadfast.domain.workflow.WorkflowReport;
import java.util.List;

/** A workflow as GET shows it: its row, its own members, and the report over its whole tree's jobs. */
public record WorkflowView(WorkflowRow workflow, List<MemberRow> members, WorkflowReport report) {
}
