package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.workflow.Advance;
import dev.steadfast.domain.workflow.Member;
import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.Outcome;
import dev.steadfast.domain.workflow.WorkflowState;
import dev.steadfast.domain.workflow.WorkflowType;
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
import java.util.Set;
import java.util.UUID;

/**
 * The workflows aggregate's door to PostgreSQL ({@link WorkflowSql}). Creating a workflow inserts it and all its
 * jobs in one transaction. Finishing a step (a worker's ACK or FAIL of a member job) runs in one transaction
 * that locks the workflow row, writes the job with the same guarded statement as the batched hot path, then
 * applies the decision the caller's {@link Decide} takes on the locked members: the step and its consequences
 * commit together or not at all, and two transactions never decide on the same finished job. Jobs finished
 * elsewhere (lease reaper, expiry, a single job's cancel, operators) are accounted for by {@link #advance}, the
 * advancer's sweep, with the same decision.
 */
@ApplicationScoped
public class WorkflowStore {

    /** The rules that decide what a workflow does now (WorkflowRules.advance). */
    @FunctionalInterface
    public interface Decide {
        Advance apply(WorkflowType type, WorkflowState state, List<Member> members);
    }

    /**
     * A member to insert: its job, role and position; {@code delayMs} for a member that waits, the delay it gets
     * once enqueued (null for none).
     */
    public record NewMember(UUID jobId, MemberRole role, int position, Long delayMs) {
    }

    public record WorkflowRow(UUID id, WorkflowType type, String name, WorkflowState state, Instant createdAt,
                              Instant completedAt, Instant cancelledAt) {
    }

    /** A member as GET shows it; job fields are null when the job no longer exists. */
    public record MemberRow(UUID jobId, MemberRole role, int position, Outcome outcome, JobState jobState,
                            String type, String queue, Integer attempt, String resultJson, String errorJson,
                            Instant startedAt, Instant completedAt) {
    }

    public record WorkflowView(WorkflowRow workflow, List<MemberRow> members) {
    }

    /**
     * What a decision enqueued, to wake this instance's long-polls: the queues of the members made available now,
     * and the members made scheduled (a delay) with when they are due.
     */
    public record Advanced(List<String> queues, List<Due> scheduled) {
        static final Advanced NOTHING = new Advanced(List.of(), List.of());
    }

    /** A member enqueued with a delay: claimable in {@code queue} from {@code at}. */
    public record Due(String queue, Instant at) {
    }

    private final Pool pool;

    public WorkflowStore(Pool pool) {
        this.pool = pool;
    }

    /** Inserts the workflow and all its jobs, or nothing; answers the job ids that were already taken. */
    public Uni<Set<UUID>> create(WorkflowRow w, List<NewJob> jobs, List<NewMember> members) {
        return pool.withTransaction(conn -> conn.preparedQuery(WorkflowSql.INSERT_WORKFLOW)
                .execute(Tuple.of(w.id(), w.type().wire(), w.name(), JobStore.odt(w.createdAt())))
                .flatMap(x -> JobStore.insert(conn, jobs))
                .flatMap(inserted -> {
                    List<UUID> taken = jobs.stream().map(NewJob::id).filter(id -> !inserted.contains(id)).toList();
                    if (!taken.isEmpty()) {
                        throw new Taken(Set.copyOf(taken));
                    }
                    UUID[] ids = members.stream().map(NewMember::jobId).toArray(UUID[]::new);
                    String[] roles = members.stream().map(m -> m.role().wire()).toArray(String[]::new);
                    Integer[] pos = members.stream().map(NewMember::position).toArray(Integer[]::new);
                    Long[] delays = members.stream().map(NewMember::delayMs).toArray(Long[]::new);
                    return conn.preparedQuery(WorkflowSql.MARK_MEMBERS).execute(Tuple.of(w.id(), ids))
                            .flatMap(y -> conn.preparedQuery(WorkflowSql.INSERT_MEMBERS)
                                    .execute(Tuple.of(w.id(), ids, roles, pos, delays)));
                })).map(x -> Set.<UUID>of()).onFailure(Taken.class).recoverWithItem(e -> ((Taken) e).ids);
    }

    private static final class Taken extends RuntimeException {
        private final Set<UUID> ids;

        Taken(Set<UUID> ids) {
            super(null, null, false, false);
            this.ids = ids;
        }
    }

    /** A worker's ACK of a workflow step; empty when the job is no step or the ACK is refused (nothing written). */
    public Uni<Optional<Finished<Completion.Done>>> completeStep(Completion c, Instant now, Decide decide) {
        return step(c.jobId(), now, decide, conn -> JobStore.complete(conn, JobSql.COMPLETE_STEP, List.of(c), now)
                .map(done -> done.isEmpty() ? null : done.get(0)));
    }

    /** A worker's FAIL of a workflow step, written as decided for its attempt; empty as for completeStep. */
    public Uni<Optional<Finished<JobRow>>> failStep(FailureWrite w, int keep, Instant fence, Instant now,
                                                     Decide decide) {
        return step(w.jobId(), now, decide, conn -> JobStore.recordFailures(conn, List.of(w), keep, fence, true)
                .map(rows -> rows.isEmpty() ? null : rows.get(0)));
    }

    /** What a step's write returned and what the workflow enqueued in the same transaction. */
    public record Finished<T>(T written, Advanced advanced) {
    }

    private <T> Uni<Optional<Finished<T>>> step(UUID jobId, Instant now, Decide decide,
                                                java.util.function.Function<SqlConnection, Uni<T>> write) {
        return pool.withTransaction(conn -> conn.preparedQuery(WorkflowSql.WORKFLOW_OF).execute(Tuple.of(jobId))
                .flatMap(rows -> {
                    UUID wf = rows.rowCount() == 0 ? null : rows.iterator().next().getUUID(0);
                    if (wf == null) {
                        return Uni.createFrom().item(Optional.<Finished<T>>empty());
                    }
                    // No row: the workflow was pruned after the job was read (PRUNE_FINISHED); the job is
                    // written all the same, with nothing left to advance.
                    return conn.preparedQuery(WorkflowSql.LOCK).execute(Tuple.of(wf))
                            .flatMap(locked -> write.apply(conn).flatMap(written -> written == null
                                    ? Uni.createFrom().item(Optional.<Finished<T>>empty())
                                    : locked.rowCount() == 0
                                    ? Uni.createFrom().item(Optional.of(new Finished<>(written, Advanced.NOTHING)))
                                    : decideAndApply(conn, wf, locked.iterator().next(), now, decide)
                                            .map(a -> Optional.of(new Finished<>(written, a)))));
                }));
    }

    /**
     * The advancer's step for one workflow: skipped when another transaction holds it; otherwise decides on its
     * members and applies the decision.
     */
    public Uni<Advanced> advance(UUID workflowId, Instant now, Decide decide) {
        return pool.withTransaction(conn -> conn.preparedQuery(WorkflowSql.LOCK_SKIP).execute(Tuple.of(workflowId))
                .flatMap(rows -> rows.rowCount() == 0 ? Uni.createFrom().item(Advanced.NOTHING)
                        : decideAndApply(conn, workflowId, rows.iterator().next(), now, decide)));
    }

    /** Deletes up to {@code limit} finished workflows that finished before {@code before}; answers how many. */
    public Uni<Integer> pruneFinished(Instant before, int limit) {
        return pool.preparedQuery(WorkflowSql.PRUNE_FINISHED).execute(Tuple.of(JobStore.odt(before), limit))
                .map(rows -> rows.rowCount());
    }

    /** Up to {@code limit} workflows with a finished member they have not accounted for. */
    public Uni<List<UUID>> unaccounted(int limit) {
        return pool.preparedQuery(WorkflowSql.UNACCOUNTED).execute(Tuple.of(limit)).map(rows -> {
            List<UUID> out = new ArrayList<>(rows.rowCount());
            rows.forEach(r -> out.add(r.getUUID(0)));
            return out;
        });
    }

    private Uni<Advanced> decideAndApply(SqlConnection conn, UUID wf, Row locked, Instant now, Decide decide) {
        WorkflowType type = WorkflowType.fromWire(locked.getString("type")).orElseThrow();
        WorkflowState state = WorkflowState.fromWire(locked.getString("state")).orElseThrow();
        return conn.preparedQuery(WorkflowSql.MEMBERS).execute(Tuple.of(wf)).flatMap(rows -> {
            List<Member> members = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                String js = r.getString("state");
                members.add(new Member(r.getUUID("job_id"), MemberRole.fromWire(r.getString("role")).orElseThrow(),
                        r.getInteger("position"), js == null ? null : JobState.fromWire(js).orElseThrow(),
                        r.getString("outcome") == null ? null : Outcome.fromWire(r.getString("outcome")).orElseThrow()));
            }
            Advance a = decide.apply(type, state, members);
            return apply(conn, wf, state, a, now);
        });
    }

    private Uni<Advanced> apply(SqlConnection conn, UUID wf, WorkflowState before, Advance a, Instant now) {
        Uni<?> chain = Uni.createFrom().voidItem();
        if (!a.cancel().isEmpty()) {
            chain = chain.flatMap(x -> conn.preparedQuery(WorkflowSql.CANCEL_WAITING)
                    .execute(Tuple.of(a.cancel().toArray(UUID[]::new), JobStore.odt(now))));
        }
        if (!a.outcomes().isEmpty()) {
            UUID[] ids = a.outcomes().keySet().toArray(UUID[]::new);
            String[] os = a.outcomes().values().stream().map(Outcome::wire).toArray(String[]::new);
            chain = chain.flatMap(x -> conn.preparedQuery(WorkflowSql.RECORD_OUTCOMES).execute(Tuple.of(ids, os)));
        }
        if (a.state() != before) {
            chain = chain.flatMap(x -> conn.preparedQuery(WorkflowSql.SET_STATE)
                    .execute(Tuple.of(wf, a.state().wire(), JobStore.odt(now))));
        }
        List<String> queues = new ArrayList<>();
        List<Due> scheduled = new ArrayList<>();
        for (Advance.Activation act : a.activate()) {
            chain = chain.flatMap(x -> conn.preparedQuery(WorkflowSql.ACTIVATE)
                    .execute(Tuple.of(act.jobId(), act.parents().toArray(UUID[]::new), JobStore.odt(now)))
                    .invoke(rows -> rows.forEach(r -> {
                        if (JobState.SCHEDULED.wire().equals(r.getString("state"))) {
                            scheduled.add(new Due(r.getString("queue"), JobRow.instant(r, "run_at")));
                        } else {
                            queues.add(r.getString("queue"));
                        }
                    })));
        }
        return chain.map(x -> new Advanced(queues, scheduled));
    }

    /** A workflow CANCEL's answer: the workflow afterwards, and whether this cancel changed it. */
    public record Cancelled(WorkflowRow workflow, boolean changed) {
    }

    /** Workflow CANCEL: empty when unknown; unchanged when it is already terminal (nothing written). */
    public Uni<Optional<Cancelled>> cancel(UUID id, String[] fromStates, Instant now) {
        return pool.withTransaction(conn -> conn.preparedQuery(WorkflowSql.LOCK).execute(Tuple.of(id)).flatMap(l -> {
            if (l.rowCount() == 0) {
                return Uni.createFrom().item(Optional.<Cancelled>empty());
            }
            if (WorkflowState.fromWire(l.iterator().next().getString("state")).orElseThrow().terminal()) {
                return find(conn, id).map(v -> v.map(x -> new Cancelled(x.workflow(), false)));
            }
            return conn.preparedQuery(WorkflowSql.CANCEL_MEMBERS).execute(Tuple.of(id, JobStore.odt(now), fromStates))
                    .flatMap(rows -> {
                        List<UUID> ids = new ArrayList<>();
                        rows.forEach(r -> ids.add(r.getUUID(0)));
                        String[] os = new String[ids.size()];
                        Arrays.fill(os, Outcome.CANCELLED.wire());
                        return conn.preparedQuery(WorkflowSql.RECORD_OUTCOMES)
                                .execute(Tuple.of(ids.toArray(UUID[]::new), os));
                    })
                    .flatMap(x -> conn.preparedQuery(WorkflowSql.SET_STATE)
                            .execute(Tuple.of(id, WorkflowState.CANCELLED.wire(), JobStore.odt(now))))
                    .flatMap(x -> find(conn, id).map(v -> v.map(x2 -> new Cancelled(x2.workflow(), true))));
        }));
    }

    /** GET: the workflow and its members with their jobs; empty when unknown. */
    public Uni<Optional<WorkflowView>> find(UUID id) {
        return find(pool, id);
    }

    /** The workflow a job belongs to, if any (the console's job page). */
    public Uni<Optional<UUID>> workflowOf(UUID jobId) {
        return pool.preparedQuery(WorkflowSql.OF_JOB).execute(Tuple.of(jobId))
                .map(rows -> rows.rowCount() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getUUID(0)));
    }

    private static Uni<Optional<WorkflowView>> find(io.vertx.mutiny.sqlclient.SqlClient client, UUID id) {
        return client.preparedQuery(WorkflowSql.FIND).execute(Tuple.of(id)).flatMap(rows -> {
            if (rows.rowCount() == 0) {
                return Uni.createFrom().item(Optional.<WorkflowView>empty());
            }
            Row r = rows.iterator().next();
            WorkflowRow w = new WorkflowRow(r.getUUID("id"), WorkflowType.fromWire(r.getString("type")).orElseThrow(),
                    r.getString("name"), WorkflowState.fromWire(r.getString("state")).orElseThrow(),
                    JobRow.instant(r, "created_at"), JobRow.instant(r, "completed_at"),
                    JobRow.instant(r, "cancelled_at"));
            return client.preparedQuery(WorkflowSql.FIND_MEMBERS).execute(Tuple.of(id)).map(ms -> {
                List<MemberRow> members = new ArrayList<>(ms.rowCount());
                for (Row m : ms) {
                    String js = m.getString("state");
                    String o = m.getString("outcome");
                    members.add(new MemberRow(m.getUUID("job_id"), MemberRole.fromWire(m.getString("role")).orElseThrow(),
                            m.getInteger("position"), o == null ? null : Outcome.fromWire(o).orElseThrow(),
                            js == null ? null : JobState.fromWire(js).orElseThrow(), m.getString("type"),
                            m.getString("queue"), m.getInteger("attempt"), m.getString("result"),
                            m.getString("error"), JobRow.instant(m, "started_at"), JobRow.instant(m, "completed_at")));
                }
                return Optional.of(new WorkflowView(w, members));
            });
        });
    }
}
