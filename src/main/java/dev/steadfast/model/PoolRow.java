package dev.steadfast.model;

import java.time.Instant;
import java.util.List;

/** A stored pool; {@code weightsJson} a JSON object of queue to weight. */
public record PoolRow(String name, String strategy, List<String> queues, String weightsJson, Integer concurrency,
                      Instant createdAt, Instant updatedAt) {
}
