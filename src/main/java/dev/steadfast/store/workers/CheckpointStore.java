package dev.steadfast.store.workers;

import dev.steadfast.domain.JobState;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Job checkpoints in {@code job_checkpoints} (V33__job_checkpoints.sql), the one home of a job's checkpoint, whether
 * saved through the checkpoint routes or a progress report ({@link ProgressStore}). The job's {@code checkpointed}
 * flag follows the row: set by a save, cleared by a delete, so FETCH reads this table only for jobs that have one.
 * A save locks the job's row (the guard's UPDATE) until it commits, so an ACK that finishes the job waits for it and
 * a save never lands after the job left {@code jobs}. Nothing here runs for a job that never checkpoints.
 */
@ApplicationScoped
public class CheckpointStore {

    /**
     * SAVE_CHECKPOINT, step 1: the job must be active with its lease not run out at $2, held by $3 when named (as
     * ProgressStore.EXTEND_LEASE; the lease is not extended); flags it and holds its row lock until commit.
     */
    static final String GUARD_SAVE = """
            UPDATE jobs SET checkpointed = true
            WHERE id = $1 AND state = 'active' AND lease_expires_at > $2
              AND ($3::text IS NULL OR lease_owner IS NULL OR lease_owner = $3)
            RETURNING id""";

    /** SAVE_CHECKPOINT, step 2: the state replaces the stored one whole; the sequence goes on from the stored one. */
    static final String SAVE = """
            INSERT INTO job_checkpoints (job_id, state, sequence, step_index, metadata, saved_at)
            VALUES ($1, $2::text::jsonb, 1, $3, $4::text::jsonb, $5)
            ON CONFLICT (job_id) DO UPDATE SET state = EXCLUDED.state, sequence = job_checkpoints.sequence + 1,
                   step_index = EXCLUDED.step_index, metadata = EXCLUDED.metadata, saved_at = EXCLUDED.saved_at
            RETURNING sequence, saved_at""";

    /** Why a save was refused: the job's state and lease, live or finished (no row: no such job). */
    static final String JOB_OF = "SELECT state, lease_owner, lease_expires_at FROM all_jobs WHERE id = $1";

    /** A job's state with its checkpoint (null columns: none, or deleted). */
    static final String READ = """
            SELECT j.state AS job_state, c.state::text AS state, c.sequence, c.step_index,
                   c.metadata::text AS metadata, c.saved_at
            FROM all_jobs j LEFT JOIN job_checkpoints c ON c.job_id = j.id AND c.state IS NOT NULL
            WHERE j.id = $1""";

    /**
     * DELETE_CHECKPOINT in one statement: clears the state (the row and its sequence stay, so a later save continues
     * it), clears the live job's flag, and reads the job's state (no row: no such job). The CTEs run whether or not
     * the SELECT reads them; it counts what the first one cleared.
     */
    static final String DELETE = """
            WITH c AS (UPDATE job_checkpoints SET state = NULL, step_index = NULL, metadata = NULL
                       WHERE job_id = $1 AND state IS NOT NULL RETURNING job_id),
                 f AS (UPDATE jobs SET checkpointed = false WHERE id = $1 AND checkpointed RETURNING id)
            SELECT j.state, (SELECT count(*) FROM c) AS cleared FROM all_jobs j WHERE j.id = $1""";

    /** FETCH, only for the claimed jobs whose flag is set: their checkpoints, one read for all of them. */
    static final String RESUME_POINTS = """
            SELECT job_id, state::text AS state, sequence FROM job_checkpoints
            WHERE job_id = ANY($1::uuid[]) AND state IS NOT NULL""";

    /** A progress report's checkpoint: flags the job whose lease the report just extended (its row is locked). */
    static final String FLAG = "UPDATE jobs SET checkpointed = true WHERE id = $1 AND NOT checkpointed";

    private final Pool pool;

    public CheckpointStore(Pool pool) {
        this.pool = pool;
    }

    /** A stored checkpoint; {@code stateJson} and {@code metadataJson} as JSON text, metadata and step may be null. */
    public record Stored(String stateJson, long sequence, Integer stepIndex, String metadataJson, Instant savedAt) {
    }

    /** What a save found: the checkpoint's new sequence and time, or the job's state and lease when refused. */
    public sealed interface Saved {
        record Done(long sequence, Instant savedAt) implements Saved {
        }

        record Refused(JobState state, String leaseOwner, Instant leaseExpiresAt) implements Saved {
        }

        record NoSuchJob() implements Saved {
        }
    }

    /** A job's state with its checkpoint (null when it has none); empty when there is no such job. */
    public record JobCheckpoint(JobState state, Stored checkpoint) {
    }

    /** What a delete found: whether a checkpoint was cleared, with the job's state; empty: no such job. */
    public record Deleted(JobState state, boolean cleared) {
    }

    /**
     * Saves {@code stateJson} as job {@code id}'s checkpoint at {@code now} when the job is active, its lease has not
     * run out and {@code workerId} (null: not checked) holds it.
     */
    public Uni<Saved> save(UUID id, String workerId, String stateJson, Integer stepIndex, String metadataJson,
                           Instant now) {
        return pool.withTransaction(conn -> conn.preparedQuery(GUARD_SAVE)
                        .execute(Tuple.of(id, JobStore.odt(now), workerId)).flatMap(guard -> guard.rowCount() == 0
                                ? Uni.createFrom().item((Saved) null)
                                : store(conn, id, stateJson, stepIndex, metadataJson, now).map(s -> (Saved) s)))
                .flatMap(s -> s != null ? Uni.createFrom().item(s) : refusal(id));
    }

    /** Stores a checkpoint inside the caller's transaction, which already holds the job's row. */
    static Uni<Saved.Done> store(SqlConnection conn, UUID id, String stateJson, Integer stepIndex,
                                 String metadataJson, Instant now) {
        return conn.preparedQuery(SAVE).execute(Tuple.tuple(Arrays.asList(id, stateJson, stepIndex, metadataJson,
                JobStore.odt(now)))).map(rows -> {
                    Row r = rows.iterator().next();
                    return new Saved.Done(r.getLong("sequence"), JobRows.instant(r, "saved_at"));
                });
    }

    /** A progress report's checkpoint, inside its transaction (the report's lease extension locked the row). */
    static Uni<Void> storeFromProgress(SqlConnection conn, UUID id, String stateJson, Instant now) {
        return store(conn, id, stateJson, null, null, now)
                .flatMap(d -> conn.preparedQuery(FLAG).execute(Tuple.of(id))).replaceWithVoid();
    }

    private Uni<Saved> refusal(UUID id) {
        return pool.preparedQuery(JOB_OF).execute(Tuple.of(id)).map(rows -> {
            if (rows.rowCount() == 0) {
                return new Saved.NoSuchJob();
            }
            Row r = rows.iterator().next();
            return new Saved.Refused(JobState.fromWire(r.getString("state")).orElseThrow(), r.getString("lease_owner"),
                    JobRows.instant(r, "lease_expires_at"));
        });
    }

    public Uni<Optional<JobCheckpoint>> read(UUID id) {
        return pool.preparedQuery(READ).execute(Tuple.of(id)).map(rows -> {
            if (rows.rowCount() == 0) {
                return Optional.empty();
            }
            Row r = rows.iterator().next();
            JobState state = JobState.fromWire(r.getString("job_state")).orElseThrow();
            Stored c = r.getLong("sequence") == null ? null : new Stored(r.getString("state"), r.getLong("sequence"),
                    r.getInteger("step_index"), r.getString("metadata"), JobRows.instant(r, "saved_at"));
            return Optional.of(new JobCheckpoint(state, c));
        });
    }

    public Uni<Optional<Deleted>> delete(UUID id) {
        return pool.preparedQuery(DELETE).execute(Tuple.of(id)).map(rows -> {
            if (rows.rowCount() == 0) {
                return Optional.empty();
            }
            Row r = rows.iterator().next();
            return Optional.of(new Deleted(JobState.fromWire(r.getString("state")).orElseThrow(),
                    r.getLong("cleared") > 0));
        });
    }

    /** The checkpoints of {@code ids} (jobs FETCH just started with their flag set), as state text and sequence. */
    public Uni<Map<UUID, Stored>> resumePoints(List<UUID> ids) {
        return pool.preparedQuery(RESUME_POINTS).execute(Tuple.of(ids.toArray(new UUID[0]))).map(rows -> {
            Map<UUID, Stored> out = new HashMap<>();
            for (Row r : rows) {
                out.put(r.getUUID("job_id"), new Stored(r.getString("state"), r.getLong("sequence"), null, null, null));
            }
            return out;
        });
    }
}
