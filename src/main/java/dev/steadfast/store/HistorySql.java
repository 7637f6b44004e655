package dev.steadfast.store;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Builds the statements that finish a job: the row leaves the live table ({@code jobs}) and enters the history
 * ({@code job_history}, V18__live_jobs_and_history.sql) in one statement, so a finished job is never in both tables
 * and never in neither. The shape is two CTEs, {@code fin} (DELETE from jobs under the caller's guard, returning the
 * old row and whatever the caller's source adds) and {@code ins} (INSERT of that row into job_history with the
 * finishing columns replaced), which the caller selects from. The history's partition key, finished_at, is derived
 * here from the state and the time columns, as its CHECK constraint demands.
 */
public final class HistorySql {

    private HistorySql() {
    }

    /** The columns of jobs and job_history, in the live table's order (V18 creates job_history LIKE jobs; V21 adds rate_limit_key, V23 tenant_id, V25 error_group, V33 checkpointed, V36 lease_check_at). */
    static final List<String> COLUMNS = List.of("id", "type", "queue", "args", "meta", "extensions", "priority",
            "tags", "state", "attempt", "snoozes", "max_attempts", "retry_policy", "error", "errors", "run", "result",
            "timeout_ms", "visibility_timeout_ms", "run_at", "scheduled_at", "expires_at", "retry_delay_ms",
            "dead_letter", "created_at", "enqueued_at", "started_at", "completed_at", "cancelled_at", "discarded_at",
            "lease_owner", "lease_expires_at", "execution_deadline", "lease_renewed_at", "unique_key", "workflow_id",
            "rate_limit_key", "tenant_id", "error_group", "checkpointed", "lease_check_at");

    /**
     * {@code fin AS (DELETE FROM jobs j <using> WHERE <where> RETURNING j.*<extra>), ins AS (INSERT INTO job_history
     * ... RETURNING *)}: {@code set} maps a column to the expression that replaces it (over {@code fin}; the lease
     * and run_at are always cleared), {@code extra} adds ", expr AS x_name" items the expressions can read.
     */
    public static String finish(String using, String where, String extra, Map<String, String> set) {
        Map<String, String> values = new HashMap<>(set);
        values.putIfAbsent("run_at", "NULL");
        values.putIfAbsent("lease_expires_at", "NULL");
        values.putIfAbsent("execution_deadline", "NULL");
        values.putIfAbsent("lease_check_at", "NULL");
        String select = COLUMNS.stream().map(c -> values.getOrDefault(c, "fin." + c) + " AS " + c)
                .collect(Collectors.joining(", "));
        String state = values.getOrDefault("state", "fin.state");
        String finishedAt = "CASE " + state + " WHEN 'completed' THEN " + values.getOrDefault("completed_at",
                "fin.completed_at") + " WHEN 'cancelled' THEN " + values.getOrDefault("cancelled_at", "fin.cancelled_at")
                + " ELSE " + values.getOrDefault("discarded_at", "fin.discarded_at") + " END";
        return "fin AS (DELETE FROM jobs j " + using + " WHERE " + where + " RETURNING j.*" + extra + "),\n"
                + "ins AS (INSERT INTO job_history (" + String.join(", ", COLUMNS) + ", finished_at)\n"
                + "    SELECT " + select + ", " + finishedAt + " FROM fin RETURNING *)";
    }

    /**
     * RETRY_DEAD_LETTER and REVIVE: finished jobs ($1, in the states $2, dead-lettered or not as $3 says) move back
     * into the live table as a new run of the same job, available at $4 with attempts reset. The error history stays,
     * each entry tagged with the run it belongs to, so the next failure starts run + 1. The one statement of this rule,
     * for single and bulk retries alike. Returns the live rows, and announces their queues on steadfast_jobs (once
     * per queue, at commit; as JobSql's PUSH does).
     */
    public static final String START_NEW_RUNS = """
            WITH old AS (
                DELETE FROM job_history h WHERE h.id = ANY($1::uuid[]) AND h.state = ANY($2::text[])
                  AND h.dead_letter = $3
                RETURNING h.*),
            revived AS (
                INSERT INTO jobs (%s)
                SELECT %s FROM old
                RETURNING\s""".formatted(String.join(", ", COLUMNS), COLUMNS.stream().map(c -> switch (c) {
                case "state" -> "'available'";
                case "dead_letter" -> "false";
                case "attempt", "snoozes" -> "0";
                case "run" -> "old.run + 1";
                case "error", "error_group", "result", "discarded_at", "completed_at", "cancelled_at", "started_at",
                     "retry_delay_ms", "lease_check_at" -> "NULL";
                case "run_at", "enqueued_at" -> "$4::timestamptz";
                default -> "old." + c;
            } + " AS " + c).collect(Collectors.joining(", "))) + JobRows.COLUMNS + """
            )
            SELECT r.*, (""" + JobNotifications.announceQueuesOf("revived") + """
            ) AS notified
            FROM revived r""";
}
