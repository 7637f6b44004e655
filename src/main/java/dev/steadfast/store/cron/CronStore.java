package dev.steadfast.store.cron;

import dev.steadfast.model.CronRow;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobSql;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.NewJob;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Cron schedules' door to PostgreSQL ({@link CronSql}): registration, listing, pause and resume, and firing. A
 * due occurrence, the job it enqueues and the schedule's move to its next occurrence are one transaction, so an
 * occurrence is either wholly acted on (recorded, enqueued, schedule advanced) or not at all, and its
 * (name, fire time) key in cron_runs makes a second attempt at it a no-op on any instance.
 */
@ApplicationScoped
public class CronStore {

    private final Pool pool;

    public CronStore(Pool pool) {
        this.pool = pool;
    }

    /** Registers a schedule; false when the name is taken. */
    public Uni<Boolean> insert(String name, String expression, String timezone, String overlap, boolean enabled,
                               String description, String templateJson, Instant nextFireAt, Instant now) {
        return pool.preparedQuery(CronSql.INSERT).execute(Tuple.tuple(Arrays.asList(name, expression, timezone,
                        overlap, enabled, description, templateJson, JobStore.odt(nextFireAt), JobStore.odt(now))))
                .map(rows -> rows.rowCount() == 1);
    }

    public Uni<Optional<CronRow>> find(String name) {
        return pool.preparedQuery(CronSql.FIND).execute(Tuple.of(name))
                .map(rows -> rows.iterator().hasNext() ? Optional.of(cronRow(rows.iterator().next()))
                        : Optional.empty());
    }

    /** One page of schedules by name, and the total. */
    public Uni<Page> list(int limit, int offset) {
        return pool.preparedQuery(CronSql.LIST).execute(Tuple.of(limit, offset)).map(rows -> {
            List<CronRow> out = new ArrayList<>(rows.rowCount());
            long total = 0;
            for (Row r : rows) {
                out.add(cronRow(r));
                total = r.getLong("total");
            }
            return new Page(out, total);
        });
    }

    /** A page of schedules; {@code total} counts them all (0 when the page is past the end). */
    public record Page(List<CronRow> rows, long total) {
    }

    /** Unregisters; occurrences still held (enqueue policy) are released first, in the same transaction. */
    public Uni<Boolean> delete(String name, Instant now) {
        return pool.withTransaction(conn -> conn.preparedQuery(CronSql.RELEASE_ALL_HELD)
                .execute(Tuple.of(name, JobStore.odt(now)))
                .flatMap(x -> conn.preparedQuery(CronSql.DELETE).execute(Tuple.of(name)))
                .map(rows -> rows.rowCount() == 1));
    }

    /** Pauses ({@code nextFireAt} null) or resumes a schedule; false when there is none by that name. */
    public Uni<Boolean> setEnabled(String name, boolean enabled, Instant nextFireAt) {
        return pool.preparedQuery(CronSql.SET_ENABLED)
                .execute(Tuple.of(name, enabled, JobStore.odt(nextFireAt))).map(rows -> rows.rowCount() == 1);
    }

    /**
     * A schedule whose next occurrence is due, as the firing decision needs it; {@code held}: how many of its
     * occurrences are held behind an unfinished run (enqueue policy).
     */
    public record Due(String name, String expression, String timezone, String overlapPolicy, String templateJson,
                      Instant fireAt, UUID lastJobId, String lastJobState, int held) {
    }

    /**
     * What to do with one due occurrence, decided by the caller.
     *
     * @param job            the job to enqueue, or null to skip the occurrence; a held occurrence's job is pending
     * @param held           whether the occurrence is held until the run before it finishes (enqueue policy)
     * @param cancelPrevious the previous run to cancel first, or null
     * @param nextFireAt     the schedule's next occurrence, or null when it never fires again
     * @param queued         how many occurrences are held once this one is recorded
     */
    public record Firing(Due due, NewJob job, boolean held, UUID cancelPrevious, Instant nextFireAt,
                         String skipReason, int queued) {
    }

    /** What happened to one occurrence; {@code recorded} is false when another transaction had already done it. */
    public record Fired(Firing firing, boolean recorded) {
    }

    /**
     * Locks up to {@code limit} schedules due at {@code now}, lets {@code decide} decide each occurrence, and acts
     * on them in one transaction: records the occurrence (exactly once), cancels the previous run, enqueues the
     * job and moves the schedule on.
     */
    public Uni<List<Fired>> fireDue(Instant now, int limit, Function<Due, Firing> decide) {
        return pool.withTransaction(conn -> conn.preparedQuery(CronSql.LOCK_DUE)
                .execute(Tuple.of(JobStore.odt(now), limit))
                .flatMap(rows -> {
                    List<Due> due = new ArrayList<>(rows.rowCount());
                    for (Row r : rows) {
                        due.add(new Due(r.getString("name"), r.getString("expression"), r.getString("timezone"),
                                r.getString("overlap_policy"), r.getString("template"),
                                JobRows.instant(r, "next_fire_at"), r.getUUID("last_job_id"),
                                r.getString("last_job_state"), r.getInteger("held")));
                    }
                    return Multi.createFrom().iterable(due)
                            .onItem().transformToUniAndConcatenate(d -> fire(conn, decide.apply(d), now))
                            .collect().asList();
                }));
    }

    private Uni<Fired> fire(SqlConnection conn, Firing f, Instant now) {
        Due d = f.due();
        UUID jobId = f.job() == null ? null : f.job().id();
        Tuple run = Tuple.tuple(Arrays.asList(d.name(), JobStore.odt(d.fireAt()), jobId == null ? "skipped" : "enqueued",
                jobId, f.skipReason(), JobStore.odt(now), jobId != null && f.held()));
        return conn.preparedQuery(CronSql.RECORD_RUN).execute(run).flatMap(recorded -> {
            boolean first = recorded.rowCount() == 1;
            Uni<Void> act = Uni.createFrom().voidItem();
            if (first && f.cancelPrevious() != null) {
                act = act.flatMap(v -> conn.preparedQuery(CronSql.CANCEL_RUN)
                        .execute(Tuple.of(f.cancelPrevious(), JobStore.odt(now))).replaceWithVoid());
            }
            if (first && f.job() != null) {
                act = act.flatMap(v -> JobStore.insert(conn, List.of(f.job())).replaceWithVoid())
                        .flatMap(v -> conn.preparedQuery(JobSql.REGISTER_QUEUES)
                                .execute(Tuple.of(new String[] {f.job().queue()}, JobStore.odt(now)))
                                .replaceWithVoid());
            }
            Tuple advance = Tuple.tuple(Arrays.asList(d.name(), JobStore.odt(f.nextFireAt()), JobStore.odt(d.fireAt()),
                    first ? jobId : null, JobStore.odt(d.fireAt())));
            return act.flatMap(v -> conn.preparedQuery(CronSql.ADVANCE).execute(advance))
                    .map(v -> new Fired(f, first));
        });
    }

    /** The earliest held occurrence of a schedule and the state of the run before it (null: its job is gone). */
    public record Held(String name, Instant fireAt, UUID jobId, String beforeState) {
    }

    /**
     * The enqueue policy's release pass: locks up to {@code limit} schedules with held occurrences (SKIP LOCKED:
     * one instance acts on a schedule at a time, and never while it is being fired), and releases the earliest held
     * occurrence of each one {@code mayRelease} accepts, in one transaction; answers how many were released. At
     * most one occurrence per schedule per pass: the one released is the run the next one waits for.
     */
    public Uni<Integer> releaseHeld(Instant now, int limit, Predicate<Held> mayRelease) {
        return pool.withTransaction(conn -> conn.preparedQuery(CronSql.LOCK_HELD).execute(Tuple.of(limit))
                .flatMap(rows -> {
                    List<Held> ready = new ArrayList<>();
                    for (Row r : rows) {
                        Held h = new Held(r.getString("name"), JobRows.instant(r, "fire_at"), r.getUUID("job_id"),
                                r.getString("before_state"));
                        if (mayRelease.test(h)) {
                            ready.add(h);
                        }
                    }
                    return Multi.createFrom().iterable(ready)
                            .onItem().transformToUniAndConcatenate(h -> conn.preparedQuery(CronSql.RELEASE_HELD)
                                    .execute(Tuple.of(h.name(), JobStore.odt(h.fireAt()), JobStore.odt(now)))
                                    .map(r -> r.iterator().next().getLong("released").intValue()))
                            .collect().asList()
                            .map(released -> released.stream().mapToInt(Integer::intValue).sum());
                }));
    }

    /**
     * Enqueues {@code job} as an occurrence of schedule {@code name} at {@code now}, made by hand: records it in
     * cron_runs (with {@code reason}), inserts the job and counts the run, in one transaction under the schedule's
     * lock. Answers false, changing nothing, when there is no such schedule or an occurrence is already recorded
     * at that very instant.
     */
    public Uni<Boolean> runNow(String name, NewJob job, String reason, Instant now) {
        return pool.withTransaction(conn -> conn.preparedQuery(CronSql.LOCK_ONE).execute(Tuple.of(name))
                .flatMap(found -> {
                    if (found.rowCount() == 0) {
                        return Uni.createFrom().item(false);
                    }
                    Tuple run = Tuple.tuple(Arrays.asList(name, JobStore.odt(now), "enqueued", job.id(), reason,
                            JobStore.odt(now), false));
                    return conn.preparedQuery(CronSql.RECORD_RUN).execute(run).flatMap(recorded -> {
                        if (recorded.rowCount() == 0) {
                            return Uni.createFrom().item(false);
                        }
                        return JobStore.insert(conn, List.of(job))
                                .flatMap(v -> conn.preparedQuery(JobSql.REGISTER_QUEUES)
                                        .execute(Tuple.of(new String[] {job.queue()}, JobStore.odt(now))))
                                .flatMap(v -> conn.preparedQuery(CronSql.RECORD_MANUAL_RUN)
                                        .execute(Tuple.of(name, JobStore.odt(now), job.id())))
                                .map(v -> true);
                    });
                }));
    }

    /** One occurrence as recorded: enqueued (with its job and that job's state now, null once pruned) or skipped. */
    public record Run(Instant fireAt, String outcome, UUID jobId, String reason, boolean held, String jobState) {
    }

    /** The schedule's latest {@code limit} occurrences, newest first. */
    public Uni<List<Run>> recentRuns(String name, int limit) {
        return pool.preparedQuery(CronSql.RECENT_RUNS).execute(Tuple.of(name, limit)).map(rows -> {
            List<Run> out = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                out.add(new Run(JobRows.instant(r, "fire_at"), r.getString("outcome"), r.getUUID("job_id"),
                        r.getString("reason"), r.getBoolean("held"), r.getString("job_state")));
            }
            return out;
        });
    }

    private static CronRow cronRow(Row r) {
        return new CronRow(r.getString("name"), r.getString("expression"), r.getString("timezone"),
                r.getString("overlap_policy"), r.getBoolean("enabled"), r.getString("description"),
                r.getString("template"), JobRows.instant(r, "next_fire_at"), JobRows.instant(r, "last_fire_at"),
                r.getUUID("last_job_id"), r.getLong("run_count"), JobRows.instant(r, "created_at"),
                r.getString("last_job_state"), r.getString("last_outcome"), JobRows.instant(r, "last_outcome_at"),
                r.getString("last_reason"), r.getLong("queued"));
    }
}
