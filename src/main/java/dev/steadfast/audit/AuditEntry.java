package dev.steadfast.audit;

import java.util.Map;

/**
 * One change to record ({@link AuditLog#record}): who ({@code actor}: a console user, or an API token's name)
 * through which door ({@code via}: {@code console} or {@code api}), what ({@code action}, e.g.
 * {@code dead-letter.retry-matching}), on what ({@code scope}: job id, queue, filter, group... as short strings),
 * how many jobs (null when the action is not about jobs, or the count is unknown), from where ({@code client}: the
 * client's address) and how it ended (the HTTP {@code status}; {@link AuditedRequests#outcome} names it).
 */
public record AuditEntry(String actor, String via, String action, Map<String, Object> scope, Long jobs, String client,
                         int status) {

    public AuditEntry {
        scope = scope == null ? Map.of() : scope;
    }

    /** A change that succeeded, for a feature that records one itself. */
    public static AuditEntry done(String actor, String via, String action, Map<String, Object> scope, Long jobs,
                                  String client) {
        return new AuditEntry(actor, via, action, scope, jobs, client, 200);
    }
}
