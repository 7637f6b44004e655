package dev.steadfast.checkpoints;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.domain.checkpoint.CheckpointRules;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.workers.CheckpointStore;
import dev.steadfast.store.workers.CheckpointStore.JobCheckpoint;
import dev.steadfast.store.workers.CheckpointStore.Stored;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Checkpoints (ojs-durable-execution.md, {@link CheckpointRules}): the worker of an active job saves its state,
 * anyone with the job's id reads or deletes it, and FETCH hands it to the next attempt ({@link #resumePoints}).
 */
@ApplicationScoped
public class CheckpointService {

    private final CheckpointStore store;
    private final Clock clock;
    public CheckpointService(CheckpointStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** A save: the state and metadata as JSON text (metadata and step may be null), the worker when named. */
    public record Save(String stateJson, Integer stepIndex, String metadataJson, String workerId) {

        /** The bytes of JSON text the size limit counts: state and metadata. */
        long bytes() {
            return utf8(stateJson) + (metadataJson == null ? 0 : utf8(metadataJson));
        }

        private static long utf8(String s) {
            return s.length() * 3L <= CheckpointRules.MAX_BYTES ? s.length() : s.getBytes(StandardCharsets.UTF_8).length;
        }
    }

    /** What a save answers: the new sequence and when it was saved. */
    public record Saved(UUID jobId, long sequence, Instant savedAt) {
    }

    /** A job's shown checkpoint. */
    public record View(UUID jobId, Stored checkpoint) {
    }

    /** SAVE: 404 for an unknown job, 409 unless active and held by the named worker, 413 over the limit. */
    public Uni<Saved> save(UUID id, Save s) {
        CheckpointRules.checkSize(s.bytes());
        Instant now = OperationTime.of(clock);
        return store.save(id, s.workerId(), s.stateJson(), s.stepIndex(), s.metadataJson(), now).map(r -> {
            if (r instanceof CheckpointStore.Saved.Done d) {
                return new Saved(id, d.sequence(), d.savedAt());
            }
            if (r instanceof CheckpointStore.Saved.Refused f) {
                throw CheckpointRules.refusal(id.toString(), f.state(), f.leaseOwner(), f.leaseExpiresAt(),
                        s.workerId(), now);
            }
            throw OjsException.notFound("job", id.toString());
        });
    }

    /** The job's checkpoint, or null when it has none (or it finished); 404 for an unknown job. */
    public Uni<View> find(UUID id) {
        return store.read(id).map(o -> {
            JobCheckpoint j = o.orElseThrow(() -> OjsException.notFound("job", id.toString()));
            return new View(id, CheckpointRules.shown(j.state()) ? j.checkpoint() : null);
        });
    }

    /** GET: the job's checkpoint; 404 for an unknown job and for a job without one. */
    public Uni<View> get(UUID id) {
        return find(id).map(v -> {
            if (v.checkpoint() == null) {
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("resource_type", "checkpoint");
                d.put("resource_id", id.toString());
                throw new OjsException(ErrorCode.NOT_FOUND, "Job '" + id + "' has no checkpoint: none was saved, it"
                        + " was deleted, or the job finished.", d);
            }
            return v;
        });
    }

    /** DELETE: true when a shown checkpoint was removed, false when there was none; 404 for an unknown job. */
    public Uni<Boolean> delete(UUID id) {
        return store.delete(id).map(o -> {
            CheckpointStore.Deleted d = o.orElseThrow(() -> OjsException.notFound("job", id.toString()));
            return d.cleared() && CheckpointRules.shown(d.state());
        });
    }

    /**
     * The checkpoints FETCH hands to the attempts it just started, as {@code {"state": ..., "sequence": n}} JSON text
     * by job id: one read for the jobs whose flag says they have one, none at all when no job does.
     */
    public Uni<Map<UUID, String>> resumePoints(List<JobRow> started) {
        List<UUID> ids = new ArrayList<>();
        for (JobRow j : started) {
            if (j.checkpointed()) {
                ids.add(j.id());
            }
        }
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return store.resumePoints(ids).map(found -> {
            Map<UUID, String> out = new HashMap<>();
            // the state is jsonb text from PostgreSQL: valid JSON, written as it is
            found.forEach((id, c) -> out.put(id, "{\"state\":" + c.stateJson() + ",\"sequence\":" + c.sequence() + "}"));
            return out;
        });
    }
}
