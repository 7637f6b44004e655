package dev.steadfast.model;

import java.time.Instant;

/** A row of the queues table. */
public record QueueRow(String name, boolean paused, Instant pausedAt, Instant createdAt) {
}
