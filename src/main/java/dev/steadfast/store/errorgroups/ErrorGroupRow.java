package dev.steadfast.store.errorgroups;

import java.time.Instant;
import java.util.List;

/**
 * One error group as error_groups keeps it (V25): the cause, how many failed attempts it counted, when the first
 * and the last happened, and up to 20 queues and job types it was seen in.
 *
 * @param id the group's fingerprint (domain.errors.ErrorGroupKey)
 */
public record ErrorGroupRow(long id, String errorType, String message, long failures, Instant firstSeen,
                            Instant lastSeen, List<String> queues, List<String> types) {
}
