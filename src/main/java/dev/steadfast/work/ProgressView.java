package dev.steadfast.work;

import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.domain.Progress;
import dev.steadfast.http.Timestamps;

/** A job's progress: every field is written, null until the worker reported some (data and checkpoint verbatim). */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
record ProgressView(String jobId, String state, Double progress, String message, @JsonRawValue String data,
                    @JsonRawValue String checkpoint, int attempt, String updatedAt) {

    static ProgressView of(ProgressService.View v) {
        Progress p = v.progress();
        return new ProgressView(v.jobId().toString(), v.job().state().wire(), p == null ? null : p.value(),
                p == null ? null : p.message(), p == null ? null : p.dataJson(),
                p == null ? null : p.checkpointJson(), v.job().attempt(),
                p == null ? null : Timestamps.format(p.updatedAt()));
    }
}
