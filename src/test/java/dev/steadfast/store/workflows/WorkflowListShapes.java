package dev.steadfast.store.workflows;

import dev.steadfast.domain.workflow.WorkflowState;
import dev.steadfast.domain.workflow.WorkflowType;
import dev.steadfast.model.WorkflowFilter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The shapes of the workflows listing that RenderedSqlTest renders, made here because its builders are visible in
 * this package only: every condition a filter adds, and the cursor.
 */
public final class WorkflowListShapes {

    private WorkflowListShapes() {
    }

    /** Each shape by its name, the cursor at ({@code at}, {@code id}). */
    public static Map<String, String> rendered(Instant at, UUID id) {
        WorkflowFilter every = new WorkflowFilter(WorkflowState.RUNNING, WorkflowType.CHAIN, "nightly",
                at.minusSeconds(86_400), at, false);
        Map<String, String> v = new LinkedHashMap<>();
        v.put("WorkflowListSql.list(top-level workflows, newest first)",
                WorkflowListSql.list(WorkflowFilter.ALL, null, null, 50, new ArrayList<>()));
        v.put("WorkflowListSql.list(nested ones too, the next page)", WorkflowListSql.list(
                new WorkflowFilter(null, null, null, null, null, true), at, id, 50, new ArrayList<>()));
        v.put("WorkflowListSql.list(state, type, name and time range)",
                WorkflowListSql.list(every, null, null, 50, new ArrayList<>()));
        v.put("WorkflowListSql.count(top-level workflows)",
                WorkflowListSql.count(WorkflowFilter.ALL, new ArrayList<>()));
        v.put("WorkflowListSql.count(state, type, name and time range)",
                WorkflowListSql.count(every, new ArrayList<>()));
        return v;
    }
}
