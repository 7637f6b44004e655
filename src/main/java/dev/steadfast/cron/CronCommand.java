package dev.steadfast.cron;

import dev.steadfast.jobs.EnqueueCommand;

/**
 * A cron registration as the API read it (field shapes checked); value rules are the service's.
 *
 * @param template    what each occurrence enqueues, as a PUSH would (its id, scheduled_at, expires_at and pending
 *                    are refused by the API: every occurrence is a new job that runs when it fires)
 * @param timezone    null for UTC
 * @param overlap     null for skip
 * @param enabled     null for true
 */
public record CronCommand(String name, String expression, String timezone, String overlap, Boolean enabled,
                          String description, EnqueueCommand template) {
}
