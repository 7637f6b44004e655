package dev.steadfast.work;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** A worker as it last reported itself (ojs-graceful-shutdown.md); unknown values are written as null. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
record WorkerHealth(String workerId, String state, boolean acceptsJobs, String directive, String hostname,
                    int activeJobs, String stateChangedAt, String lastHeartbeatAt) {
}
