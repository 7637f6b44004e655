package dev.steadfast.workflows;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.Timestamps;
import dev.steadfast.store.workflows.WorkflowListStore.Listed;
import java.util.List;

/**
 * {@code GET /ojs/v1/workflows}'s answer: {@code workflows} (newest first) and {@code pagination}
 * (ojs-http-binding.md 17.2: {@code total}, {@code has_more}, {@code next_cursor} only while there are more, and
 * the {@code limit} used).
 */
record WorkflowListAnswer(List<Item> workflows, Pagination pagination) {

    static WorkflowListAnswer of(WorkflowListing.Page p, int limit) {
        return new WorkflowListAnswer(p.workflows().stream().map(Item::of).toList(),
                new Pagination(p.total(), limit, p.nextCursor() != null, p.nextCursor()));
    }

    /**
     * One workflow's summary; the counters are its own steps (a group's or batch's jobs; a nested workflow counts
     * as one) by the outcome the workflow has recorded; {@code parent_id} only for a nested workflow.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Item(String id, String type, String name, String state, String parentId, String createdAt,
                String startedAt, String completedAt, String cancelledAt, int stepsTotal, int stepsCompleted,
                int stepsFailed, int stepsCancelled) {

        static Item of(Listed w) {
            return new Item(w.id().toString(), w.type().wire(), w.name(), w.state().wire(),
                    w.parentId() == null ? null : w.parentId().toString(), Timestamps.format(w.createdAt()),
                    Timestamps.format(w.startedAt()), Timestamps.format(w.completedAt()),
                    Timestamps.format(w.cancelledAt()), w.stepsTotal(), w.stepsCompleted(), w.stepsFailed(),
                    w.stepsCancelled());
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Pagination(long total, int limit, boolean hasMore,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String nextCursor) {
    }
}
