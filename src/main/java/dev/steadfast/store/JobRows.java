package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import dev.steadfast.model.JobRow;
import io.vertx.mutiny.sqlclient.Row;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/** How the store reads a {@link JobRow}: the select lists and the row's reading. */
public final class JobRows {

    private JobRows() {
    }

    private static final String[] PLAIN = {"id", "type", "queue", "priority", "tags", "state", "attempt",
        "snoozes", "max_attempts", "run", "timeout_ms", "visibility_timeout_ms", "run_at", "scheduled_at", "expires_at",
        "retry_delay_ms", "dead_letter", "created_at", "enqueued_at", "started_at", "completed_at", "cancelled_at",
        "discarded_at", "lease_owner", "lease_expires_at", "execution_deadline", "lease_renewed_at", "workflow_id",
        "checkpointed"};
    private static final String[] JSON = {"args", "meta", "extensions", "retry_policy", "error", "errors", "result"};

    /** What a worker's transitions never need: the error history, the last error and the result. */
    private static final Set<String> HEAVY = Set.of("errors", "error", "result");

    /**
     * The select list of {@link #columns(String)} with the error history, the last error and the result read as
     * NULL: what FETCH and FAIL return, so a job's history never travels on the hot path.
     */
    public static String leanColumns(String alias) {
        String p = alias.isEmpty() ? "" : alias + ".";
        StringBuilder sb = new StringBuilder();
        for (String c : PLAIN) {
            sb.append(sb.length() == 0 ? "" : ", ").append(p).append(c);
        }
        for (String c : JSON) {
            sb.append(", ").append(HEAVY.contains(c) ? "NULL" : p + c).append("::text AS ").append(c);
        }
        return sb.toString();
    }

    /** The select list that {@link #from(Row)} reads, JSON columns cast to text. */
    static final String COLUMNS = columns("");

    /** The same select list with every column qualified by {@code alias}. */
    static String columns(String alias) {
        String p = alias.isEmpty() ? "" : alias + ".";
        StringBuilder sb = new StringBuilder();
        for (String c : PLAIN) {
            sb.append(sb.length() == 0 ? "" : ", ").append(p).append(c);
        }
        for (String c : JSON) {
            sb.append(", ").append(p).append(c).append("::text AS ").append(c);
        }
        return sb.toString();
    }

    /** The row a just-inserted job has, without reading it back. */
    public static JobRow inserted(NewJob j) {
        return new JobRow(j.id(), j.type(), j.queue(), j.argsJson(), j.metaJson(), j.extensionsJson(), j.priority(),
                j.tags(), j.state(), 0, 0, j.maxAttempts(), j.retryPolicyJson(), null, "[]", 1, null, j.timeoutMs(),
                j.visibilityTimeoutMs(), j.runAt(), j.scheduledAt(), j.expiresAt(), null, false, j.createdAt(),
                j.enqueuedAt(), null, null, null, null, null, null, null, null, null, false);
    }

    public static JobRow from(Row r) {
        String[] tags = r.getArrayOfStrings("tags");
        return new JobRow(r.getUUID("id"), r.getString("type"), r.getString("queue"), r.getString("args"),
                r.getString("meta"), r.getString("extensions"), r.getInteger("priority"),
                tags == null ? List.of() : Arrays.asList(tags),
                JobState.fromWire(r.getString("state")).orElseThrow(), r.getInteger("attempt"), r.getInteger("snoozes"),
                r.getInteger("max_attempts"), r.getString("retry_policy"), r.getString("error"),
                r.getString("errors"), r.getInteger("run"), r.getString("result"), r.getLong("timeout_ms"),
                r.getLong("visibility_timeout_ms"), instant(r, "run_at"), instant(r, "scheduled_at"),
                instant(r, "expires_at"), r.getLong("retry_delay_ms"), r.getBoolean("dead_letter"),
                instant(r, "created_at"), instant(r, "enqueued_at"), instant(r, "started_at"),
                instant(r, "completed_at"), instant(r, "cancelled_at"), instant(r, "discarded_at"),
                r.getString("lease_owner"), instant(r, "lease_expires_at"), instant(r, "execution_deadline"),
                instant(r, "lease_renewed_at"), r.getUUID("workflow_id"),
                Boolean.TRUE.equals(r.getBoolean("checkpointed")));
    }

    public static Instant instant(Row r, String column) {
        OffsetDateTime t = r.getOffsetDateTime(column);
        return t == null ? null : t.toInstant();
    }
}
