package dev.steadfast.checkpoints;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.Timestamps;
import dev.steadfast.store.workers.CheckpointStore.Stored;

/** The checkpoint routes' answers. */
final class CheckpointViews {

    private CheckpointViews() {
    }

    /**
     * A checkpoint: the state as it was saved, its sequence, when it was saved ({@code created_at}, the spec's name
     * for the latest save's time), and the JavaScript SDK's step index and metadata when it sent them.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Checkpoint(String jobId, @JsonRawValue String state, long sequence, Integer stepIndex,
                      @JsonRawValue String metadata, String createdAt) {

        static Checkpoint of(CheckpointService.View v) {
            Stored c = v.checkpoint();
            return new Checkpoint(v.jobId().toString(), c.stateJson(), c.sequence(), c.stepIndex(), c.metadataJson(),
                    Timestamps.format(c.savedAt()));
        }
    }

    /** A save's answer (the state is not echoed: it may be a megabyte). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Saved(String jobId, long sequence, String createdAt) {

        static Saved of(CheckpointService.Saved s) {
            return new Saved(s.jobId().toString(), s.sequence(), Timestamps.format(s.savedAt()));
        }
    }

    /** A delete's answer: {@code deleted} is false when there was no checkpoint to delete. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Deleted(boolean deleted, String jobId) {
    }

    /** The JavaScript SDK's resume read: whether there is a checkpoint, and the checkpoint when there is. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Resume(String jobId, boolean hasCheckpoint, Checkpoint checkpoint) {

        static Resume of(CheckpointService.View v) {
            return new Resume(v.jobId().toString(), v.checkpoint() != null,
                    v.checkpoint() == null ? null : Checkpoint.of(v));
        }
    }
}
