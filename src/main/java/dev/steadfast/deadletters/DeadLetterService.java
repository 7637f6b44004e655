package dev.steadfast.deadletters;

import dev.steadfast.audit.AuditLog;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.KeysetCursor;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.events.Telemetry;
import dev.steadfast.maintenance.Batches;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.deadletters.DeadLetterFilter;
import dev.steadfast.store.deadletters.DeadLetterStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * Dead letter operations (ojs-dead-letter.md): browse with filters and cursor pagination, read one, retry it as
 * a new run (its error history is kept), delete it, statistics, and retry or delete everything matching a
 * filter. Bulk operations act on every matching job, not a page, and require an explicit confirmation.
 * Retrying a job that is not dead-lettered is a 404 (it is not in the dead letter queue) or, when the job
 * exists in another state, a 409 naming that state.
 */
@ApplicationScoped
public class DeadLetterService {

    private static final int BULK_BATCH = 1000;

    private final DeadLetterStore store;
    private final JobStore jobs;
    private final Telemetry telemetry;
    private final Clock clock;

    @Inject // a field: the audit note is an addition every bulk service shares, outside its constructor
    AuditLog audit;

    public DeadLetterService(DeadLetterStore store, JobStore jobs, Telemetry telemetry, Clock clock) {
        this.store = store;
        this.jobs = jobs;
        this.telemetry = telemetry;
        this.clock = clock;
    }

    /** A page of dead letters, its total and the cursor of the next page (null on the last). */
    public record Page(List<JobRow> jobs, long total, String nextCursor) {
    }

    public Uni<Page> list(DeadLetterFilter f, String cursor, int limit, int offset) {
        KeysetCursor after = KeysetCursor.decode("cursor", cursor);
        return store.list(f, after == null ? null : after.at(), after == null ? null : after.id(), limit + 1,
                        cursor == null ? offset : 0)
                .flatMap(rows -> store.count(f).map(total -> {
                    boolean more = rows.size() > limit;
                    List<JobRow> page = more ? rows.subList(0, limit) : rows;
                    JobRow last = page.isEmpty() ? null : page.get(page.size() - 1);
                    return new Page(page, total, more ? new KeysetCursor(last.discardedAt(), last.id()).encode() : null);
                }));
    }

    public Uni<JobRow> get(UUID id) {
        return store.find(id).map(o -> o.orElseThrow(() -> OjsException.notFound("dead_letter_job", id.toString())));
    }

    public Uni<JobRow> retry(UUID id) {
        Instant now = OperationTime.of(clock);
        return store.retry(id, now).flatMap(o -> {
            if (o.isPresent()) {
                telemetry.deadLetterRetried(o.get(), now);
                return Uni.createFrom().item(o.get());
            }
            return notDeadLettered(id).map(x -> (JobRow) null);
        });
    }

    public Uni<Void> delete(UUID id) {
        return store.delete(id).flatMap(deleted -> deleted ? Uni.createFrom().voidItem() : notDeadLettered(id));
    }

    private Uni<Void> notDeadLettered(UUID id) {
        return jobs.stateOf(id).map(o -> {
            if (o.isEmpty()) {
                throw OjsException.notFound("dead_letter_job", id.toString());
            }
            throw new OjsException(ErrorCode.CONFLICT, "Job '" + id + "' is not in the dead letter queue; it is '"
                    + o.get().state().wire() + "'.", Map.of("job_id", id.toString(), "current_state",
                    o.get().state().wire()));
        });
    }

    public Uni<DeadLetterStore.Stats> stats() {
        return store.stats();
    }

    /** The outcome of a bulk operation. */
    public record Bulk(String action, long matched, long succeeded) {
    }

    /** Retries every dead letter matching {@code f}; refused without {@code confirm}. */
    public Uni<Bulk> retryAll(DeadLetterFilter f, boolean confirm) {
        requireConfirm(confirm, "retry");
        Instant now = OperationTime.of(clock);
        return store.count(f).flatMap(matched -> Batches.untilShort(() -> store.retryMatching(f, now, BULK_BATCH), BULK_BATCH)
                .map(n -> new Bulk("retry", matched, n))).invoke(b -> audit.noteJobs(b.succeeded()));
    }

    /** Deletes every dead letter matching {@code f}; refused without {@code confirm}. */
    public Uni<Bulk> deleteAll(DeadLetterFilter f, boolean confirm) {
        requireConfirm(confirm, "delete");
        return store.count(f).flatMap(matched -> Batches.untilShort(() -> store.deleteMatching(f, BULK_BATCH), BULK_BATCH)
                .map(n -> new Bulk("delete", matched, n))).invoke(b -> audit.noteJobs(b.succeeded()));
    }

    /** How many dead letters match {@code f}. */
    public Uni<Long> count(DeadLetterFilter f) {
        return store.count(f);
    }

    /** Retries each of {@code ids} in turn; one that is no longer a dead letter is counted, not fatal. */
    public Uni<Bulk> retryEach(List<UUID> ids, boolean confirm) {
        requireConfirm(confirm, "retry");
        return each(ids, id -> retry(id).replaceWithVoid()).map(n -> new Bulk("retry", ids.size(), n))
                .invoke(b -> audit.noteJobs(b.succeeded()));
    }

    /** Deletes each of {@code ids} in turn; one that is no longer a dead letter is counted, not fatal. */
    public Uni<Bulk> deleteEach(List<UUID> ids, boolean confirm) {
        requireConfirm(confirm, "delete");
        return each(ids, this::delete).map(n -> new Bulk("delete", ids.size(), n))
                .invoke(b -> audit.noteJobs(b.succeeded()));
    }

    private static Uni<Integer> each(List<UUID> ids, Function<UUID, Uni<Void>> op) {
        Uni<Integer> done = Uni.createFrom().item(0);
        for (UUID id : ids) {
            done = done.flatMap(n -> op.apply(id).map(v -> n + 1)
                    .onFailure(OjsException.class).recoverWithItem(n));
        }
        return done;
    }

    public static void requireConfirm(boolean confirm, String action) {
        if (!confirm) {
            throw OjsException.invalidField("confirm", "Bulk " + action + " acts on every matching job; send "
                    + "\"confirm\": true to proceed.", "true", "false or missing");
        }
    }
}
