package dev.steadfast.store.maintenance;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The statements the pruner builds for an old day's partition, which RenderedSqlTest renders, made here because their
 * builders are visible in this package only.
 */
public final class PartitionDropShapes {

    private PartitionDropShapes() {
    }

    /** Each statement by its name, for the partition of 2026-11-01. */
    public static Map<String, String> rendered() {
        String quoted = "\"job_history_done_20261101\"";
        Map<String, String> v = new LinkedHashMap<>();
        v.put("MaintenanceSql.countPartition(an old day's partition)", MaintenanceSql.countPartition(quoted));
        v.put("MaintenanceSql.dropPartition(an old day's partition)", MaintenanceSql.dropPartition(quoted));
        return v;
    }
}
