package dev.steadfast.work;

import dev.steadfast.domain.FailureReport;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A worker's FAIL (nack).
 *
 * @param workerId  the worker that claims to hold the lease, or null
 * @param details   the error's details object, or null
 * @param backtrace the error's backtrace frames, or null
 */
record FailCommand(UUID jobId, String workerId, FailureReport report, Map<String, Object> details,
                          List<String> backtrace) {
}
