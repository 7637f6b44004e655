package dev.steadfast.store;

import dev.steadfast.domain.ClaimCursors;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.retry.ErrorHistory;
import dev.steadfast.model.Completion;
import dev.steadfast.model.JobRow;
import dev.steadfast.model.QueueRow;
import dev.steadfast.model.StateAndOwner;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The jobs aggregate's only door to PostgreSQL. Each method runs the named statements of {@link JobSql}; every
 * multi-row method takes a list so callers can batch. Transitions are guarded in SQL by the states the
 * {@link dev.steadfast.domain.JobStateMachine} allows, so a refused transition writes nothing and is reported as
 * "no row", which the service explains.
 */
@ApplicationScoped
public class JobStore {

    private final Pool pool;
    private final ClaimCursors cursors;

    /**
     * How many error entries a job's history keeps (steadfast.errors.history-size, never below the floor of
     * domain.retry.ErrorHistory), for the entry a claim records when it discards an expired job.
     */
    private final int historyKept;

    public JobStore(Pool pool, ClaimCursors cursors,
                    @ConfigProperty(name = "steadfast.errors.history-size",
                            defaultValue = "50") int historySize) {
        this.historyKept = ErrorHistory.kept(historySize);
        this.pool = pool;
        this.cursors = cursors;
    }

    /** Inserts the jobs and returns the ids that were new (an id that already existed is left out). */
    public Uni<Set<UUID>> insert(List<NewJob> jobs) {
        return insert(pool, jobs);
    }

    /**
     * Inserts all the jobs or none (PUSH batch): in one transaction, rolled back when any id already existed.
     * Answers the ids that already existed (empty when everything was inserted).
     */
    public Uni<Set<UUID>> insertAllOrNothing(List<NewJob> jobs) {
        if (!anyClientId(jobs)) {
            // one statement that cannot skip a row is all or nothing by itself (JobSql.INSERT_NEW_JOBS)
            return insert(pool, jobs).replaceWith(Set.of());
        }
        return pool.withTransaction(conn -> insert(conn, jobs).map(inserted -> {
            Set<UUID> taken = new HashSet<>();
            jobs.stream().map(NewJob::id).filter(id -> !inserted.contains(id)).forEach(taken::add);
            if (!taken.isEmpty()) {
                throw new TakenIds(taken);
            }
            return taken;
        })).onFailure(TakenIds.class).recoverWithItem(e -> ((TakenIds) e).ids);
    }

    /** Signals, inside a transaction, that it must roll back because these ids were taken. */
    private static final class TakenIds extends RuntimeException {
        private final Set<UUID> ids;

        TakenIds(Set<UUID> ids) {
            super(null, null, false, false);
            this.ids = ids;
        }
    }

    /** Inserts on {@code client}: the pool, or a connection whose transaction the job belongs to (cron firing). */
    public static Uni<Set<UUID>> insert(SqlClient client, List<NewJob> jobs) {
        int n = jobs.size();
        UUID[] ids = new UUID[n];
        String[] types = new String[n], queues = new String[n], args = new String[n], metas = new String[n],
                exts = new String[n], tags = new String[n], states = new String[n], retries = new String[n],
                uniqueKeys = new String[n], rateKeys = new String[n];
        Boolean[] clientIds = new Boolean[n];
        Integer[] priorities = new Integer[n], maxAttempts = new Integer[n];
        Long[] timeouts = new Long[n], vis = new Long[n];
        OffsetDateTime[] runAt = new OffsetDateTime[n], sched = new OffsetDateTime[n], expires = new OffsetDateTime[n],
                created = new OffsetDateTime[n], enqueued = new OffsetDateTime[n];
        boolean clientChosen = false;
        for (int i = 0; i < n; i++) {
            NewJob j = jobs.get(i);
            ids[i] = j.id();
            types[i] = j.type();
            queues[i] = j.queue();
            args[i] = j.argsJson();
            metas[i] = j.metaJson();
            exts[i] = j.extensionsJson();
            priorities[i] = j.priority();
            tags[i] = j.tags().isEmpty() ? null : TagsJson.of(j.tags()); // none: JobSql.TAGS_OF
            states[i] = j.state().wire();
            maxAttempts[i] = j.maxAttempts();
            retries[i] = j.retryPolicyJson();
            timeouts[i] = j.timeoutMs();
            vis[i] = j.visibilityTimeoutMs();
            runAt[i] = odt(j.runAt());
            sched[i] = odt(j.scheduledAt());
            expires[i] = odt(j.expiresAt());
            created[i] = odt(j.createdAt());
            enqueued[i] = odt(j.enqueuedAt());
            uniqueKeys[i] = j.uniqueKey();
            clientIds[i] = j.clientId();
            clientChosen |= j.clientId();
            rateKeys[i] = j.rateLimitKey();
        }
        Tuple t = Tuple.from(Arrays.asList(ids, types, queues, args, metas, exts, priorities, tags, states,
                maxAttempts, retries, timeouts, vis, runAt, sched, expires, created, enqueued, uniqueKeys, clientIds,
                rateKeys));
        if (!clientChosen) {
            return client.preparedQuery(JobSql.INSERT_NEW_JOBS).execute(t).map(rows -> {
                Set<UUID> inserted = new HashSet<>(n * 2);
                Collections.addAll(inserted, ids);
                return inserted;
            });
        }
        return client.preparedQuery(JobSql.INSERT_JOBS).execute(t).map(rows -> {
            Set<UUID> inserted = new HashSet<>(rows.rowCount());
            for (Row r : rows) {
                inserted.add(r.getUUID(0));
            }
            return inserted;
        });
    }

    /** Whether a client chose any of these jobs' ids (then a conflict is possible: JobSql.INSERT_JOBS). */
    private static boolean anyClientId(List<NewJob> jobs) {
        for (NewJob j : jobs) {
            if (j.clientId()) {
                return true;
            }
        }
        return false;
    }

    public Uni<Void> registerQueues(Collection<String> names, Instant now) {
        return pool.preparedQuery(JobSql.REGISTER_QUEUES)
                .execute(Tuple.of(names.toArray(String[]::new), odt(now))).replaceWithVoid();
    }

    /**
     * Claims up to {@code count} jobs from {@code queues} for {@code workerId} in one statement: earlier queues
     * first, and within a queue in claim order (priority, then when each became available).
     */
    public Uni<Claimed> claim(List<String> queues, int count, String workerId, Long visibilityMs, Instant now) {
        if (queues.size() == 1) {
            // one queue, the common FETCH: a statement whose plan PostgreSQL caches (JobSql.claimOne), read from
            // where the queue's last claim ended when there is a cursor (ClaimCursors)
            String queue = queues.get(0);
            ClaimCursors.Start from = cursors.start(queue, now);
            Uni<RowSet<Row>> rows = from.full()
                    ? Uni.createFrom().deferred(() -> {
                        // how long reading from the head took paces the next one (ClaimCursors.FULL_COST_SHARE)
                        long started = System.nanoTime();
                        return pool.preparedQuery(JobSql.claimOne(count))
                                .execute(Tuple.of(queue, odt(now), workerId, visibilityMs, historyKept))
                                .invoke(r -> cursors.fullClaimTook(queue, Duration.ofNanos(System.nanoTime() - started)));
                    })
                    : pool.preparedQuery(JobSql.claimFrom(count)).execute(Tuple.tuple(Arrays.asList(queue, odt(now),
                            workerId, visibilityMs, from.priority(), odt(from.fromRunAt()), historyKept)));
            return rows.map(Claimed::of).invoke(c -> {
                List<JobRow> jobs = c.started();
                if (!jobs.isEmpty()) {
                    JobRow last = jobs.get(jobs.size() - 1);
                    cursors.claimed(queue, from, new ClaimCursors.Key(last.priority(), last.enqueuedAt(), last.id()));
                }
            });
        }
        Tuple t = Tuple.tuple(Arrays.asList(queues.toArray(String[]::new), odt(now), workerId, visibilityMs,
                historyKept));
        return pool.preparedQuery(JobSql.claimQueues(count)).execute(t).map(Claimed::of);
    }

    /**
     * What a plain claim did: the jobs it started, in claim order, and the jobs it discarded because their
     * expires_at had passed (JobSql.withExpired), which the caller announces.
     */
    public record Claimed(List<JobRow> started, List<JobRow> expired) {

        static Claimed of(RowSet<Row> rows) {
            List<JobRow> expired = new ArrayList<>(0);
            List<JobRow> started = claimed(rows, expired);
            return new Claimed(started, expired);
        }
    }

    public static Uni<List<JobRow>> claim(SqlClient client, String sql, List<String> queues,
                                   int count, String workerId, Long visibilityMs, Instant now) {
        Tuple t = Tuple.tuple(Arrays.asList(queues.toArray(String[]::new), odt(now), count, workerId, visibilityMs));
        return client.preparedQuery(sql).execute(t).map(JobStore::claimed);
    }

    /** The jobs a claim statement started, in claim order. */
    public static List<JobRow> claimed(RowSet<Row> rows) {
        return claimed(rows, null);
    }

    /** {@link #claimed(RowSet)}, the rows a claim discarded (state discarded, no ord) put into {@code expired}. */
    private static List<JobRow> claimed(RowSet<Row> rows, List<JobRow> expired) {
        List<JobRow> out = new ArrayList<>(rows.rowCount());
        if (rows.rowCount() == 0) {
            return out;
        }
        Map<UUID, Long> ord = new HashMap<>();
        List<String> columns = rows.columnsNames();
        JobRows.Reader read = JobRows.reader(columns);
        int ordAt = columns.indexOf("ord");
        for (Row r : rows) {
            JobRow j = read.read(r);
            if (expired != null && j.state() == JobState.DISCARDED) {
                expired.add(j);
                continue;
            }
            ord.put(j.id(), r.getLong(ordAt));
            out.add(j);
        }
        // RETURNING has no order: restore it (queue order, priority, then when each became available).
        out.sort(Comparator.<JobRow>comparingLong(j -> ord.get(j.id()))
                .thenComparing(JobRow::priority, Comparator.reverseOrder())
                .thenComparing(JobRow::enqueuedAt).thenComparing(JobRow::id));
        return out;
    }

    /** The states an ACK and a FAIL (and a lease expiry) start from, bound into their statements' guards. */
    private static final String[] ACK_SOURCES = JobStateMachine.sourceNames(JobStateMachine.Operation.ACK);
    private static final String[] FAIL_SOURCES = JobStateMachine.sourceNames(JobStateMachine.Operation.FAIL);

    /**
     * Completes the jobs whose lease allows it (jobs outside workflows); answers each acknowledgement's outcome: done,
     * or refused with the job as the statement saw it (JobSql.COMPLETE).
     */
    public Uni<List<Completion.Result>> complete(List<Completion> acks, Instant now) {
        return complete(pool, acks, now);
    }

    /** {@link #complete(List, Instant)} on {@code client}. */
    public static Uni<List<Completion.Result>> complete(SqlClient client,
                                                        List<Completion> acks, Instant now) {
        return client.preparedQuery(JobSql.COMPLETE).execute(completions(acks, now)).map(rows -> {
            List<Completion.Result> out = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                if (r.getBoolean("done")) {
                    out.add(done(r, now));
                } else {
                    String state = r.getString("state");
                    out.add(new Completion.Refused(r.getUUID("id"), state == null ? null
                            : new StateAndOwner(JobState.fromWire(state).orElseThrow(), r.getString("lease_owner"),
                                    JobRows.instant(r, "lease_expires_at")), r.getUUID("workflow_id")));
                }
            }
            return out;
        });
    }

    /** Completes the given workflow steps whose lease allows it (JobSql.COMPLETE_STEP); the others are left out. */
    public static Uni<List<Completion.Done>> completeSteps(SqlClient client,
                                                           List<Completion> acks, Instant now) {
        return client.preparedQuery(JobSql.COMPLETE_STEP).execute(completions(acks, now)).map(rows -> {
            List<Completion.Done> done = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                done.add(done(r, now));
            }
            return done;
        });
    }

    private static Completion.Done done(Row r, Instant now) {
        return new Completion.Done(r.getUUID("id"), r.getString("type"), r.getString("queue"), r.getInteger("attempt"),
                JobRows.instant(r, "started_at"), now, r.getString("traceparent"));
    }

    private static Tuple completions(List<Completion> acks, Instant now) {
        int n = acks.size();
        UUID[] ids = new UUID[n];
        String[] results = new String[n], workers = new String[n];
        for (int i = 0; i < n; i++) {
            ids[i] = acks.get(i).jobId();
            results[i] = acks.get(i).resultJson();
            workers[i] = acks.get(i).workerId();
        }
        return Tuple.of(ids, results, workers, odt(now), ACK_SOURCES);
    }

    /** The attempt facts of the given jobs, for FAIL decisions; unknown ids are left out. */
    public Uni<List<Attempt>> attempts(List<UUID> ids) {
        return pool.preparedQuery(JobSql.ATTEMPTS).execute(Tuple.of(ids.toArray(UUID[]::new))).map(rows -> {
            List<Attempt> out = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                out.add(new Attempt(r.getUUID("id"), r.getString("type"), r.getString("queue"),
                        JobState.fromWire(r.getString("state")).orElseThrow(), r.getInteger("attempt"),
                        r.getInteger("snoozes"), r.getInteger("run"), r.getString("lease_owner"),
                        JobRows.instant(r, "lease_expires_at"), r.getString("retry_policy"), r.getUUID("workflow_id")));
            }
            return out;
        });
    }

    /**
     * Writes failed-attempt outcomes in one statement, each guarded by its attempt (see JobSql.RECORD_FAILURES);
     * answers the rows written (lean: no history). {@code fence}: a lease that ran out at this instant refuses
     * the write (null: no fence, for the lease reaper).
     */
    public Uni<List<JobRow>> recordFailures(List<FailureWrite> writes, int keep, Instant fence) {
        return recordFailures(pool, writes, keep, fence, false);
    }

    /** {@code steps}: whether workflow steps are written too (see JobSql.RECORD_FAILURES). */
    public static Uni<List<JobRow>> recordFailures(SqlClient client, List<FailureWrite> writes,
                                            int keep, Instant fence, boolean steps) {
        int n = writes.size();
        UUID[] ids = new UUID[n];
        Integer[] attempts = new Integer[n];
        String[] workers = new String[n], states = new String[n], entries = new String[n];
        OffsetDateTime[] runAt = new OffsetDateTime[n], at = new OffsetDateTime[n];
        Long[] delays = new Long[n];
        Boolean[] dead = new Boolean[n];
        Long[] groups = new Long[n];
        String[] groupTypes = new String[n], groupMessages = new String[n];
        for (int i = 0; i < n; i++) {
            FailureWrite w = writes.get(i);
            ids[i] = w.jobId();
            attempts[i] = w.attempt();
            workers[i] = w.workerId();
            states[i] = w.state().wire();
            runAt[i] = odt(w.runAt());
            delays[i] = w.retryDelayMs();
            entries[i] = w.errorJson();
            dead[i] = w.deadLetter();
            at[i] = odt(w.at());
            if (w.group() != null) {
                groups[i] = w.group().fingerprint();
                groupTypes[i] = w.group().type();
                groupMessages[i] = w.group().message();
            }
        }
        OffsetDateTime f = fence == null ? OffsetDateTime.MIN : odt(fence);
        Tuple t = Tuple.tuple(Arrays.asList(ids, keep, f, attempts, workers, states, runAt, delays, entries, dead, at,
                steps, groups, groupTypes, groupMessages, FAIL_SOURCES));
        return client.preparedQuery(JobSql.RECORD_FAILURES).execute(t).map(JobStore::rowsOf);
    }

    /** Cancels the job when its state allows; empty when it does not exist or may not be cancelled. */
    public Uni<Optional<Cancelled>> cancel(UUID id, String[] fromStates, Instant now) {
        return pool.preparedQuery(JobSql.CANCEL).execute(Tuple.of(id, odt(now), fromStates)).map(rows -> {
            if (rows.rowCount() == 0) {
                return Optional.empty();
            }
            Row r = rows.iterator().next();
            return Optional.of(new Cancelled(JobState.fromWire(r.getString("previous_state")).orElseThrow(),
                    JobRows.from(r)));
        });
    }

    /** A cancelled job and the state it was cancelled from. */
    public record Cancelled(JobState previousState, JobRow job) {
    }

    /** Snoozes an active job until {@code until}; empty when it is not active or leased to another worker. */
    public Uni<Optional<JobRow>> snooze(UUID id, String workerId, Instant until, Instant now) {
        return one(pool.preparedQuery(JobSql.SNOOZE).execute(Tuple.of(id, workerId, odt(until), odt(now))));
    }

    /** Activates a pending job; empty when it is not pending. */
    public Uni<Optional<JobRow>> activate(UUID id, Instant now) {
        return one(pool.preparedQuery(JobSql.ACTIVATE).execute(Tuple.of(id, odt(now))));
    }

    /** The first row of a statement's answer as a job, or empty when it matched nothing. */
    static Uni<Optional<JobRow>> one(Uni<RowSet<Row>> q) {
        return q.map(rows -> rows.rowCount() == 0 ? Optional.empty() : Optional.of(JobRows.from(rows.iterator().next())));
    }

    /**
     * Job INFO and the console's job page: the whole job through {@link JobEntity} while it is live, else through
     * {@link FinishedJobEntity}. A job finishing between the two reads is found in the second.
     */
    public Uni<Optional<JobRow>> find(UUID id) {
        return Panache.withSession(() -> JobEntity.<JobEntity>findById(id)
                .flatMap(e -> e != null ? Uni.createFrom().item(Optional.of(e.toRow()))
                        : FinishedJobEntity.<FinishedJobEntity>findById(id)
                                .map(f -> f == null ? Optional.<JobRow>empty() : Optional.of(f.toRow()))));
    }

    /** The state of a job and who holds its lease, to explain a refused transition. */
    public Uni<Optional<StateAndOwner>> stateOf(UUID id) {
        return pool.preparedQuery(JobSql.STATE_OF).execute(Tuple.of(id)).map(rows -> {
            if (rows.rowCount() == 0) {
                return Optional.empty();
            }
            Row r = rows.iterator().next();
            return Optional.of(new StateAndOwner(JobState.fromWire(r.getString(0)).orElseThrow(), r.getString(1),
                    JobRows.instant(r, "lease_expires_at")));
        });
    }


    public Uni<List<QueueRow>> queues() {
        return pool.query(JobSql.LIST_QUEUES).execute().map(rows -> {
            List<QueueRow> out = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                out.add(new QueueRow(r.getString("name"), r.getBoolean("paused"), JobRows.instant(r, "paused_at"),
                        JobRows.instant(r, "created_at")));
            }
            return out;
        });
    }

    public Uni<Void> reset() {
        // The reset locks its tables one by one; a maintenance task that locks two of them the other way round (the
        // cron firer releasing a held run: cron_runs, then jobs) can deadlock with it, and PostgreSQL may pick the
        // reset as the victim: emptying the tables again is harmless, so it is retried
        return pool.query(JobSql.RESET).execute().replaceWithVoid()
                .onFailure(e -> e instanceof PgException pg && "40P01".equals(pg.getSqlState()))
                .retry().atMost(5);
    }

    /** Round-trips a trivial query; the health check times it. */
    public Uni<Void> ping() {
        return pool.query("SELECT 1").execute().replaceWithVoid();
    }

    public static List<JobRow> rowsOf(RowSet<Row> rows) {
        List<JobRow> out = new ArrayList<>(rows.rowCount());
        if (rows.rowCount() == 0) {
            return out;
        }
        JobRows.Reader read = JobRows.reader(rows.columnsNames());
        for (Row r : rows) {
            out.add(read.read(r));
        }
        return out;
    }

    public static OffsetDateTime odt(Instant i) {
        return i == null ? null : OffsetDateTime.ofInstant(i, ZoneOffset.UTC);
    }
}
