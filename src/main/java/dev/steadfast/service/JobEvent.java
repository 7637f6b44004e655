package dev.steadfast.service;

import java.time.Instant;
import java.util.Map;

/**
 * One lifecycle event in the OJS event envelope (ojs-events.md section 2): an id, a type such as
 * {@code job.completed}, the time, the job id as subject, and the type's data fields.
 */
public record JobEvent(String id, String type, Instant time, String subject, String queue, String jobType,
                       Map<String, Object> data) {
}
