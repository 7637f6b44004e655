package dev.steadfast.model;

import java.time.Instant;

/**
 * One audit entry as stored: who ({@code actor}, a console user or an API token's name) acting through
 * {@code via} ({@code console} or {@code api}) did {@code action} on {@code scope} (a JSON object as text: job id,
 * queue, filter, group...), touching {@code jobs} jobs (null when not a job count), at {@code at} from
 * {@code client}, ending as {@code outcome} with HTTP {@code status}.
 */
public record AuditRow(long id, Instant at, String actor, String via, String action, String scope, Long jobs,
                       String client, String outcome, int status) {
}
