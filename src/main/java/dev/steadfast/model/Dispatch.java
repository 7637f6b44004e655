package dev.steadfast.model;

/** Jobs started since the window's start, of one queue and tenant (tenant null: jobs without one). */
public record Dispatch(String queue, String tenant, long count, double avgWaitMs) {
}
