package dev.steadfast.work;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobExpiry;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.retry.ErrorEntry;
import dev.steadfast.events.Telemetry;
import dev.steadfast.http.Json;
import dev.steadfast.http.Timestamps;
import dev.steadfast.jobs.ErrorHistoryJson;
import dev.steadfast.jobs.ExpiredOnRead;
import dev.steadfast.maintenance.Batches;
import dev.steadfast.maintenance.MaintenanceConfig;
import dev.steadfast.maintenance.Throttle;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.maintenance.MaintenanceStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * Job expiry (expires_at, ojs-core.md 5.2): jobs whose deadline passed before a worker started them are
 * discarded, with {@link JobExpiry}'s reason recorded as their error ({@code code} and {@code type}
 * {@code expired}, appended to the history) and a {@code job.discarded} event with {@code reason: "expired"}.
 * The claim itself never hands out an expired job: a plain claim discards the expired jobs of its queues in its own
 * statement (store.JobSql.withExpired), and INFO discards the job it reads when it is expired ({@link #discard(
 * java.util.UUID, Instant)}). This discards the rest: it runs on the scheduled {@code ExpiryReaper} and, at most
 * every steadfast.fetch.reap-interval, beside a FETCH's claim (the FETCH does not wait), which covers the claims
 * of limited queues, of keyed jobs and of tenants, which do not discard in their statements.
 * Rows are locked with SKIP LOCKED: instances never discard the same job twice.
 */
@ApplicationScoped
class ExpiredJobs implements ExpiredOnRead {

    private final MaintenanceStore store;
    private final FetchConfig fetchConfig;
    private final MaintenanceConfig maintenanceConfig;
    private final Telemetry telemetry;
    private final AttemptOutcomes outcomes;
    private final ObjectMapper json;
    private final Throttle fromFetch;

    public ExpiredJobs(MaintenanceStore store, FetchConfig fetchConfig, MaintenanceConfig maintenanceConfig,
                       Telemetry telemetry, AttemptOutcomes outcomes, ObjectMapper json) {
        this.store = store;
        this.fetchConfig = fetchConfig;
        this.fromFetch = new Throttle(fetchConfig.reapInterval());
        this.maintenanceConfig = maintenanceConfig;
        this.telemetry = telemetry;
        this.outcomes = outcomes;
        this.json = json;
    }

    /** Discards expired jobs when no FETCH has done so for steadfast.fetch.reap-interval; answers how many. */
    public Uni<Integer> discardIfDue(Instant now) {
        if (!fromFetch.tryPass(now)) {
            return Uni.createFrom().item(0);
        }
        return discard(now).onFailure().recoverWithItem(0);
    }

    /** Discards every job expired at {@code now}, batch after batch; answers how many. */
    public Uni<Integer> discard(Instant now) {
        int batch = maintenanceConfig.batchSize();
        return Batches.untilShort(() -> store.discardExpired(now, batch, outcomes.historyKept(), row -> entry(row, now))
                .map(rows -> {
                    for (JobRow r : rows) {
                        telemetry.expired(r, now);
                    }
                    return rows.size();
                }), batch);
    }

    /** INFO found job {@code id} waiting past its expires_at: discarded now, as the reaper would. */
    @Override
    public Uni<Void> discard(UUID id, Instant now) {
        return store.discardExpired(id, now, outcomes.historyKept(), row -> entry(row, now)).invoke(rows -> {
            for (JobRow r : rows) {
                telemetry.expired(r, now);
            }
        }).replaceWithVoid();
    }

    /** The error entry of a job discarded at {@code now} for its expires_at (JobSql.expiryEntry writes it alike). */
    String entry(JobRow row, Instant now) {
        return entry(row.run(), row.attempt(), row.expiresAt(), row.state(), now);
    }

    /** {@link #entry(JobRow, Instant)} of a job in {@code state}, in its {@code run} after {@code attempt} attempts. */
    String entry(int run, int attempt, Instant expiresAt, JobState state, Instant now) {
        String message = JobExpiry.reason(expiresAt, state, now);
        // Recorded against the attempt that was never started.
        ErrorEntry e = new ErrorEntry(run, attempt + 1, JobExpiry.CODE, JobExpiry.CODE, message, now,
                Map.of("expires_at", Timestamps.format(expiresAt), "state", state.wire()), null);
        return Json.write(json, ErrorHistoryJson.entry(json, e, false, null));
    }

}
