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

    /** A job row read by column name (a single row; for the rows of one result, {@link #reader}). */
    public static JobRow from(Row r) {
        String[] names = new String[r.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = r.getColumnName(i);
        }
        return reader(Arrays.asList(names)).read(r);
    }

    /** Reads the rows of one result whose columns are {@code columnNames} (a RowSet's {@code columnsNames()}). */
    public static Reader reader(List<String> columnNames) {
        return new Reader(columnNames);
    }

    /**
     * Reads job rows by column position, the positions found once per result: {@code Row.getString(name)} scans the
     * result's column names for every call, 36 scans of up to 40 names a row (in a profile of claims and ACKs, 28 of
     * the 32 samples spent reading claimed rows).
     */
    public static final class Reader {
        private static final String[] READ = {"id", "type", "queue", "args", "meta", "extensions", "priority", "tags",
            "state", "attempt", "snoozes", "max_attempts", "retry_policy", "error", "errors", "run", "result",
            "timeout_ms", "visibility_timeout_ms", "run_at", "scheduled_at", "expires_at", "retry_delay_ms",
            "dead_letter", "created_at", "enqueued_at", "started_at", "completed_at", "cancelled_at", "discarded_at",
            "lease_owner", "lease_expires_at", "execution_deadline", "lease_renewed_at", "workflow_id",
            "checkpointed"};
        private final int[] at = new int[READ.length];

        private Reader(List<String> columnNames) {
            for (int k = 0; k < READ.length; k++) {
                at[k] = columnNames.indexOf(READ[k]);
                if (at[k] < 0) {
                    throw new IllegalArgumentException("no column " + READ[k] + " in " + columnNames);
                }
            }
        }

        public JobRow read(Row r) {
            String[] tags = r.getArrayOfStrings(at[7]);
            return new JobRow(r.getUUID(at[0]), r.getString(at[1]), r.getString(at[2]), r.getString(at[3]),
                    r.getString(at[4]), r.getString(at[5]), r.getInteger(at[6]),
                    tags == null ? List.of() : Arrays.asList(tags),
                    JobState.fromWire(r.getString(at[8])).orElseThrow(), r.getInteger(at[9]), r.getInteger(at[10]),
                    r.getInteger(at[11]), r.getString(at[12]), r.getString(at[13]), r.getString(at[14]),
                    r.getInteger(at[15]), r.getString(at[16]), r.getLong(at[17]), r.getLong(at[18]),
                    instant(r, at[19]), instant(r, at[20]), instant(r, at[21]), r.getLong(at[22]),
                    r.getBoolean(at[23]), instant(r, at[24]), instant(r, at[25]), instant(r, at[26]),
                    instant(r, at[27]), instant(r, at[28]), instant(r, at[29]), r.getString(at[30]),
                    instant(r, at[31]), instant(r, at[32]), instant(r, at[33]), r.getUUID(at[34]),
                    Boolean.TRUE.equals(r.getBoolean(at[35])));
        }
    }

    public static Instant instant(Row r, String column) {
        OffsetDateTime t = r.getOffsetDateTime(column);
        return t == null ? null : t.toInstant();
    }

    private static Instant instant(Row r, int column) {
        OffsetDateTime t = r.getOffsetDateTime(column);
        return t == null ? null : t.toInstant();
    }
}
