package dev.steadfast.store.workers;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.Progress;
import dev.steadfast.domain.checkpoint.CheckpointRules;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;

/**
 * Job progress in {@code job_progress} (V11__job_progress.sql). A report is one transaction: extend the lease of
 * the active job (a progress report is a heartbeat), read the stored report under that row lock, store the merged
 * one ({@link Progress#merged}), and, when the report carries a checkpoint, save it as the job's checkpoint
 * ({@link CheckpointStore}, since V33 its one home). Nothing of it touches the hot path's statements.
 */
@ApplicationScoped
public class ProgressStore {

    /**
     * REPORT_PROGRESS, step 1: the heartbeat part, guarded like BEAT (active, lease not run out, held by the named
     * worker when one is named); $4 is always null (the job's own visibility timeout).
     */
    static final String EXTEND_LEASE = "UPDATE jobs SET " + WorkerStore.LEASE_EXTENSION + """

            WHERE id = $1 AND state = 'active' AND lease_expires_at > $3
              AND ($2::text IS NULL OR lease_owner IS NULL OR lease_owner = $2)
            RETURNING attempt, run""";

    static final String STORED = """
            SELECT attempt, run, progress, message, data::text AS data, updated_at
            FROM job_progress WHERE job_id = $1""";

    static final String STORE = """
            INSERT INTO job_progress (job_id, attempt, run, progress, message, data, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, $7)
            ON CONFLICT (job_id) DO UPDATE SET attempt = $2, run = $3, progress = $4, message = $5, data = $6::text::jsonb,
                   updated_at = $7""";

    /** The job with its progress and its checkpoint (job_checkpoints, CheckpointStore: the one home of both routes'). */
    static final String READ = """
            SELECT j.state, j.attempt, j.run, p.attempt AS p_attempt, p.run AS p_run, p.progress, p.message,
                   p.data::text AS data, c.state::text AS checkpoint, p.updated_at
            FROM all_jobs j LEFT JOIN job_progress p ON p.job_id = j.id
                 LEFT JOIN job_checkpoints c ON c.job_id = j.id AND c.state IS NOT NULL
            WHERE j.id = $1""";

    private final Pool pool;

    public ProgressStore(Pool pool) {
        this.pool = pool;
    }

    /** Builds the report to store from the stored one (or null) and the job's current attempt and run. */
    @FunctionalInterface
    public interface Merge {
        Progress apply(Progress previous, int attempt, int run);
    }

    /** A job's state and position, with the report stored for it (null when none). */
    public record JobProgress(JobState state, int attempt, int run, Progress stored) {
    }

    /** The progress of a job; empty when there is no such job. */
    public Uni<Optional<JobProgress>> read(UUID id) {
        return pool.preparedQuery(READ).execute(Tuple.of(id)).map(rows -> {
            if (rows.rowCount() == 0) {
                return Optional.empty();
            }
            Row r = rows.iterator().next();
            JobState state = JobState.fromWire(r.getString("state")).orElseThrow();
            Progress stored = r.getInteger("p_attempt") == null ? null : new Progress(r.getInteger("p_attempt"),
                    r.getInteger("p_run"), r.getDouble("progress"), r.getString("message"), r.getString("data"),
                    CheckpointRules.shown(state) ? r.getString("checkpoint") : null, JobRows.instant(r, "updated_at"));
            return Optional.of(new JobProgress(state, r.getInteger("attempt"), r.getInteger("run"), stored));
        });
    }

    /**
     * Records a report for the active job {@code id}: extends its lease and stores {@code merge}'s answer to the
     * stored report. False (nothing changed) when the job is not active, its lease ran out, or another worker
     * holds it.
     */
    public Uni<Boolean> report(UUID id, String workerId, Instant now, Merge merge) {
        return pool.withTransaction(conn -> conn.preparedQuery(EXTEND_LEASE)
                .execute(Tuple.of(id, workerId, JobStore.odt(now), null)).flatMap(leased -> {
                    if (leased.rowCount() == 0) {
                        return Uni.createFrom().item(false);
                    }
                    Row job = leased.iterator().next();
                    int attempt = job.getInteger("attempt");
                    int run = job.getInteger("run");
                    return stored(conn, id).flatMap(previous -> {
                        Progress p = merge.apply(previous, attempt, run);
                        Uni<Void> written = conn.preparedQuery(STORE).execute(Tuple.tuple(Arrays.asList(id, attempt,
                                run, p.value(), p.message(), p.dataJson(), JobStore.odt(now)))).replaceWithVoid();
                        return p.checkpointJson() == null ? written.replaceWith(true) : written.flatMap(x ->
                                CheckpointStore.storeFromProgress(conn, id, p.checkpointJson(), now)).replaceWith(true);
                    });
                }));
    }

    /** The stored report, or a null item when there is none. */
    private static Uni<Progress> stored(SqlConnection conn, UUID id) {
        return conn.preparedQuery(STORED).execute(Tuple.of(id)).map(ProgressStore::first);
    }

    private static Progress first(RowSet<Row> rows) {
        if (rows.rowCount() == 0) {
            return null;
        }
        Row r = rows.iterator().next();
        return new Progress(r.getInteger("attempt"), r.getInteger("run"), r.getDouble("progress"),
                r.getString("message"), r.getString("data"), null, JobRows.instant(r, "updated_at"));
    }
}
