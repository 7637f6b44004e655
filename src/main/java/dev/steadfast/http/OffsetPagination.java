package dev.steadfast.http;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** The data plane's page description: {@code {"total", "limit", "offset", "has_more"}}. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record OffsetPagination(long total, int limit, int offset, boolean hasMore) {
}
