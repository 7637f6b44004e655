package dev.steadfast.store.cron;

import dev.steadfast.store.JobRow;
import io.vertx.mutiny.sqlclient.Row;
import java.time.Instant;
import java.util.UUID;

/**
 * A cron schedule as stored, with what the console and the API show beside it: the state of its last run and
 * its latest occurrence (enqueued or skipped, with the reason), and how many occurrences are held behind an
 * unfinished run ({@code queued}, enqueue policy).
 */
public record CronRow(String name, String expression, String timezone, String overlapPolicy, boolean enabled,
                      String description, String templateJson, Instant nextFireAt, Instant lastFireAt,
                      UUID lastJobId, long runCount, Instant createdAt, String lastJobState, String lastOutcome,
                      Instant lastOutcomeAt, String lastReason, long queued) {

    static CronRow from(Row r) {
        return new CronRow(r.getString("name"), r.getString("expression"), r.getString("timezone"),
                r.getString("overlap_policy"), r.getBoolean("enabled"), r.getString("description"),
                r.getString("template"), JobRow.instant(r, "next_fire_at"), JobRow.instant(r, "last_fire_at"),
                r.getUUID("last_job_id"), r.getLong("run_count"), JobRow.instant(r, "created_at"),
                r.getString("last_job_state"), r.getString("last_outcome"), JobRow.instant(r, "last_outcome_at"),
                r.getString("last_reason"), r.getLong("queued"));
    }
}
