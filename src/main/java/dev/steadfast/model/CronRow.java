package dev.steadfast.model;

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
}
