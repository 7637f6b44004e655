package dev.steadfast.work;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.domain.JobState;
import dev.steadfast.http.Timestamps;
import java.time.Instant;
import java.util.UUID;

/** ACK's answer: the job, completed, and when ({@code id} and {@code job_id} both name it). */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
record AckAnswer(boolean acknowledged, String id, String jobId, String state, String completedAt) {

    static AckAnswer of(UUID id, Instant at) {
        return new AckAnswer(true, id.toString(), id.toString(), JobState.COMPLETED.wire(), Timestamps.format(at));
    }
}
