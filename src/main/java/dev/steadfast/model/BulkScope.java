package dev.steadfast.model;

import java.util.List;
import java.util.UUID;

/** Which jobs: the selected ids (at most a page's worth), or everything the filter matches but its state. */
public record BulkScope(JobFilter filter, List<UUID> ids) {

    public static BulkScope of(List<UUID> ids) {
        return new BulkScope(null, List.copyOf(ids));
    }

    public static BulkScope of(JobFilter filter) {
        return new BulkScope(filter, null);
    }
}
