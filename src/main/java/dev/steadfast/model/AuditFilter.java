package dev.steadfast.model;

import java.time.Instant;

/** The filters of a page: each null when not filtered on; {@code until} is exclusive. */
public record AuditFilter(String actor, String action, Instant since, Instant until) {
}
