package dev.steadfast.http;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** The admin API's page description (ojs-admin-api.md): {@code {"total", "page", "per_page"}}. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Pagination(long total, int page, int perPage) {
}
