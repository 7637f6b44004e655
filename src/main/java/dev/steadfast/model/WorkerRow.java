package dev.steadfast.model;

import java.time.Instant;
import java.util.List;

/** A known worker. */
public record WorkerRow(String id, String directive, Instant firstSeen, Instant lastSeen, String hostname,
                        List<String> queues, long activeJobs) {
}
