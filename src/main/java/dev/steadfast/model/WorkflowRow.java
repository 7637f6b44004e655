package dev.steadfast.model;

import dev.steadfast.domain.workflow.WorkflowState;
import dev.steadfast.domain.workflow.WorkflowType;
import java.time.Instant;
import java.util.UUID;

/** A workflow; {@code parentId} and {@code rootId} null for a top-level one. */
public record WorkflowRow(UUID id, WorkflowType type, String name, WorkflowState state, Instant createdAt,
                          Instant completedAt, Instant cancelledAt, UUID parentId, UUID rootId) {
}
