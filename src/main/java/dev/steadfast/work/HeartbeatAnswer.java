package dev.steadfast.work;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * BEAT's answer: the worker's {@code state} as the server wants it, the {@code directive} (empty while running),
 * the job ids whose leases were extended and the server's time.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
record HeartbeatAnswer(String state, String directive, boolean acknowledged, List<String> jobsExtended,
                       String serverTime) {
}
