package dev.steadfast.store.workflows;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.workflow.Advance;
import dev.steadfast.domain.workflow.Member;
import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.Outcome;
import dev.steadfast.domain.workflow.WorkflowReport;
import dev.steadfast.domain.workflow.WorkflowRules;
import dev.steadfast.domain.workflow.WorkflowState;
import dev.steadfast.domain.workflow.WorkflowType;
import dev.steadfast.model.Completion;
import dev.steadfast.model.JobRow;
import dev.steadfast.model.MemberRow;
import dev.steadfast.model.WorkflowRow;
import dev.steadfast.model.WorkflowView;
import dev.steadfast.store.FailureWrite;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.NewJob;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The workflows aggregate's door to PostgreSQL ({@link WorkflowSql}). Creating a workflow inserts it, the
 * workflows nested in it and all their jobs in one transaction. Finishing a step (a worker's ACK or FAIL of a
 * member job) runs in one transaction that locks the row of the tree's root, writes the job with the same guarded
 * statement as the batched hot path, then applies the decision the caller's {@link Decide} takes on the members:
 * the step and its consequences commit together or not at all, and two transactions never decide on the same
 * finished job. When a nested workflow finishes, its outcome is its parent's member outcome, decided in the same
 * transaction, up to the root; when its turn comes, it starts by activating its first members with the results
 * its own activation carried. Jobs finished elsewhere (lease reaper, expiry, a single job's cancel, operators) are
 * accounted for by {@link #advance}, the advancer's sweep, with the same decision.
 */
@ApplicationScoped
public class WorkflowStore {

    /** The rules that decide what a workflow does now (WorkflowRules.advance). */
    @FunctionalInterface
    public interface Decide {
        Advance apply(WorkflowType type, WorkflowState state, List<Member> members);
    }

    /**
     * A member to insert into {@code workflowId}: its job (or, {@code child}, the nested workflow's id), role and
     * position; {@code delayMs} for a member that waits, the delay it gets once enqueued (null for none);
     * {@code stepKey} the client's step id (a workflow created in the binding's shape), or null.
     */
    public record NewMember(UUID workflowId, UUID jobId, MemberRole role, int position, Long delayMs, boolean child,
                            String stepKey) {
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

    /**
     * Inserts the workflows (a top-level one and those nested in it, all created at the first one's instant) and
     * all their jobs, or nothing; answers the job ids that were already taken.
     */
    public Uni<Set<UUID>> create(List<WorkflowRow> workflows, List<NewJob> jobs, List<NewMember> members) {
        Tuple w = Tuple.tuple(Arrays.asList(workflows.stream().map(WorkflowRow::id).toArray(UUID[]::new),
                workflows.stream().map(x -> x.type().wire()).toArray(String[]::new),
                workflows.stream().map(WorkflowRow::name).toArray(String[]::new),
                workflows.stream().map(x -> x.state().wire()).toArray(String[]::new),
                JobStore.odt(workflows.get(0).createdAt()),
                workflows.stream().map(WorkflowRow::parentId).toArray(UUID[]::new),
                workflows.stream().map(WorkflowRow::rootId).toArray(UUID[]::new)));
        return pool.withTransaction(conn -> conn.preparedQuery(WorkflowSql.INSERT_WORKFLOWS).execute(w)
                .flatMap(x -> JobStore.insert(conn, jobs))
                .flatMap(inserted -> {
                    List<UUID> taken = jobs.stream().map(NewJob::id).filter(id -> !inserted.contains(id)).toList();
                    if (!taken.isEmpty()) {
                        throw new Taken(Set.copyOf(taken));
                    }
                    List<NewMember> ofJobs = members.stream().filter(m -> !m.child()).toList();
                    Tuple marks = Tuple.of(ofJobs.stream().map(NewMember::jobId).toArray(UUID[]::new),
                            ofJobs.stream().map(NewMember::workflowId).toArray(UUID[]::new));
                    Tuple rows = Tuple.tuple(Arrays.asList(members.stream().map(NewMember::jobId).toArray(UUID[]::new),
                            members.stream().map(NewMember::workflowId).toArray(UUID[]::new),
                            members.stream().map(m -> m.role().wire()).toArray(String[]::new),
                            members.stream().map(NewMember::position).toArray(Integer[]::new),
                            members.stream().map(NewMember::delayMs).toArray(Long[]::new),
                            members.stream().map(NewMember::child).toArray(Boolean[]::new),
                            members.stream().map(NewMember::stepKey).toArray(String[]::new)));
                    return conn.preparedQuery(WorkflowSql.MARK_MEMBERS).execute(marks)
                            .flatMap(y -> conn.preparedQuery(WorkflowSql.INSERT_MEMBERS).execute(rows));
                })).map(x -> Set.<UUID>of()).onFailure(Taken.class).recoverWithItem(e -> ((Taken) e).ids);
    }

    private static final class Taken extends RuntimeException {
        private final Set<UUID> ids;

        Taken(Set<UUID> ids) {
            super(null, null, false, false);
            this.ids = ids;
        }
    }

    /**
     * A worker's ACK of a workflow step; empty when the job is no step or the ACK is refused (nothing written).
     * {@code workflow}: the workflow the job is a step of (from the claim, or from the statement that refused a
     * plain ACK of it).
     */
    public Uni<Optional<Finished<Completion.Done>>> completeStep(Completion c, UUID workflow, Instant now,
                                                                 Decide decide) {
        return step(c.jobId(), workflow, now, decide, true,
                conn -> JobStore.completeSteps(conn, List.of(c), now)
                        .map(done -> done.isEmpty() ? null : done.get(0)));
    }

    /** A worker's FAIL of a workflow step, written as decided for its attempt; empty as for completeStep. */
    public Uni<Optional<Finished<JobRow>>> failStep(FailureWrite w, UUID workflow, int keep, Instant fence,
                                                     Instant now, Decide decide) {
        return step(w.jobId(), workflow, now, decide, false,
                conn -> JobStore.recordFailures(conn, List.of(w), keep, fence, true)
                        .map(rows -> rows.isEmpty() ? null : rows.get(0)));
    }

    /** What a step's write returned and what the workflow enqueued in the same transaction. */
    public record Finished<T>(T written, Advanced advanced) {
    }

    /**
     * A step's write in its workflow's transaction: the tree's root locked, the write, then the workflow decided on.
     * {@code wf} comes from the claim or from the refusing statement (a job's workflow never changes), so it is not
     * read again; a job that is no longer live simply writes nothing (its guard). {@code noted}: the
     * write records the step's start on its workflow itself (COMPLETE_STEP); otherwise NOTE_STARTED follows it.
     */
    private <T> Uni<Optional<Finished<T>>> step(UUID jobId, UUID wf, Instant now, Decide decide, boolean noted,
                                                Function<SqlConnection, Uni<T>> write) {
        // No row: the workflow was pruned after the job was read (PRUNE_FINISHED); the job is written all the same,
        // with nothing left to advance.
        return pool.withTransaction(conn -> conn.preparedQuery(WorkflowSql.LOCK_ROOT).execute(Tuple.of(wf))
                .flatMap(locked -> write.apply(conn).flatMap(written -> written == null
                        ? Uni.createFrom().item(Optional.<Finished<T>>empty())
                        : locked.rowCount() == 0
                        ? Uni.createFrom().item(Optional.of(new Finished<>(written, Advanced.NOTHING)))
                        : (noted ? Uni.createFrom().voidItem() : conn.preparedQuery(WorkflowSql.NOTE_STARTED)
                                .execute(Tuple.of(wf, jobId)).replaceWithVoid())
                                .flatMap(x -> decided(conn, wf, root(locked, wf), now, decide))
                                .map(a -> Optional.of(new Finished<>(written, a))))));
    }

    /**
     * The advancer's step for one workflow: skipped when another transaction holds its tree; otherwise decides on
     * its members and applies the decision.
     */
    public Uni<Advanced> advance(UUID workflowId, Instant now, Decide decide) {
        return pool.withTransaction(conn -> conn.preparedQuery(WorkflowSql.LOCK_ROOT_SKIP).execute(Tuple.of(workflowId))
                .flatMap(rows -> rows.rowCount() == 0 ? Uni.createFrom().item(Advanced.NOTHING)
                        : decided(conn, workflowId, root(rows, workflowId), now, decide)));
    }

    /** The row LOCK_ROOT locked, when it is workflow {@code wf} itself (its READ); null for a nested workflow. */
    private static Row root(RowSet<Row> locked, UUID wf) {
        if (locked.rowCount() == 0) {
            return null;
        }
        Row r = locked.iterator().next();
        return wf.equals(r.getUUID("id")) ? r : null;
    }

    /**
     * Decides on {@code wf} (its tree's root locked; {@code read}: its row as READ reads it, null to read it) and on
     * every outer workflow its finishing finishes.
     */
    private Uni<Advanced> decided(SqlConnection conn, UUID wf, Row read, Instant now, Decide decide) {
        Enqueued e = new Enqueued();
        return decideAndApply(conn, wf, read, now, decide, e).map(x -> e.advanced());
    }

    /** What the decisions of one transaction enqueued. */
    private static final class Enqueued {
        final List<String> queues = new ArrayList<>();
        final List<Due> scheduled = new ArrayList<>();

        Advanced advanced() {
            return new Advanced(queues, scheduled);
        }
    }

    /** A member's job state, a nested workflow's standing for one. */
    private static Member member(Row r) {
        String js = r.getString("state");
        String cs = r.getString("child_state");
        JobState state = r.getBoolean("child")
                ? (cs == null ? null : WorkflowState.fromWire(cs).orElseThrow().asMemberState())
                : (js == null ? null : JobState.fromWire(js).orElseThrow());
        return new Member(r.getUUID("job_id"), MemberRole.fromWire(r.getString("role")).orElseThrow(),
                r.getInteger("position"), state,
                r.getString("outcome") == null ? null : Outcome.fromWire(r.getString("outcome")).orElseThrow());
    }

    private static Uni<List<Member>> members(SqlConnection conn, UUID wf, Set<UUID> children) {
        return conn.preparedQuery(WorkflowSql.MEMBERS).execute(Tuple.of(wf)).map(rows -> {
            List<Member> members = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                members.add(member(r));
                if (r.getBoolean("child")) {
                    children.add(r.getUUID("job_id"));
                }
            }
            return members;
        });
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

    /**
     * Reads workflow {@code wf} (its root locked), decides on its members and applies the decision; when that
     * finishes a nested workflow, its parent is decided on next, in the same transaction.
     */
    private Uni<Void> decideAndApply(SqlConnection conn, UUID wf, Row known, Instant now, Decide decide, Enqueued e) {
        Uni<Row> read = known != null ? Uni.createFrom().item(known)
                : conn.preparedQuery(WorkflowSql.READ).execute(Tuple.of(wf))
                        .map(rows -> rows.rowCount() == 0 ? null : rows.iterator().next());
        return read.flatMap(w -> {
            if (w == null) {
                return Uni.createFrom().voidItem();
            }
            WorkflowType type = WorkflowType.fromWire(w.getString("type")).orElseThrow();
            WorkflowState state = WorkflowState.fromWire(w.getString("state")).orElseThrow();
            UUID parent = w.getUUID("parent_id");
            Set<UUID> children = new HashSet<>();
            return members(conn, wf, children).flatMap(members -> {
                Advance a = decide.apply(type, state, members);
                Uni<Void> applied = apply(conn, wf, state, a, children, now, e);
                boolean finished = a.state().terminal() && !state.terminal();
                return parent == null || !finished ? applied
                        : applied.flatMap(x -> decideAndApply(conn, parent, null, now, decide, e));
            });
        });
    }

    /**
     * A nested workflow's turn (pending -> running): its first members (WorkflowRules.initial) are activated with
     * {@code parents}, the results its own activation carried; a first member that is itself nested starts too.
     */
    private Uni<Void> start(SqlConnection conn, UUID wf, List<UUID> parents, Instant now, Enqueued e) {
        return conn.preparedQuery(WorkflowSql.START).execute(Tuple.of(wf)).flatMap(started -> {
            if (started.rowCount() == 0) {
                return Uni.createFrom().voidItem();
            }
            WorkflowType type = WorkflowType.fromWire(started.iterator().next().getString("type")).orElseThrow();
            Set<UUID> children = new HashSet<>();
            return members(conn, wf, children).flatMap(members -> {
                Uni<Void> chain = Uni.createFrom().voidItem();
                for (UUID id : WorkflowRules.initial(type, members)) {
                    chain = chain.flatMap(x -> children.contains(id) ? start(conn, id, parents, now, e)
                            : activate(conn, id, parents, now, e));
                }
                return chain;
            });
        });
    }

    private Uni<Void> activate(SqlConnection conn, UUID job, List<UUID> parents, Instant now, Enqueued e) {
        return conn.preparedQuery(WorkflowSql.ACTIVATE)
                .execute(Tuple.of(job, parents.toArray(UUID[]::new), JobStore.odt(now)))
                .invoke(rows -> rows.forEach(r -> {
                    if (JobState.SCHEDULED.wire().equals(r.getString("state"))) {
                        e.scheduled.add(new Due(r.getString("queue"), JobRows.instant(r, "run_at")));
                    } else {
                        e.queues.add(r.getString("queue"));
                    }
                })).replaceWithVoid();
    }

    private Uni<Void> apply(SqlConnection conn, UUID wf, WorkflowState before, Advance a, Set<UUID> children,
                            Instant now, Enqueued e) {
        Uni<?> chain = Uni.createFrom().voidItem();
        List<UUID> cancelJobs = a.cancel().stream().filter(id -> !children.contains(id)).toList();
        List<UUID> cancelNested = a.cancel().stream().filter(children::contains).toList();
        if (!cancelJobs.isEmpty()) {
            chain = chain.flatMap(x -> conn.preparedQuery(WorkflowSql.CANCEL_WAITING)
                    .execute(Tuple.of(cancelJobs.toArray(UUID[]::new), JobStore.odt(now))));
        }
        if (!cancelNested.isEmpty()) {
            chain = chain.flatMap(x -> conn.preparedQuery(WorkflowSql.CANCEL_TREES).execute(Tuple.of(
                    cancelNested.toArray(UUID[]::new), JobStore.odt(now), new String[] {JobState.PENDING.wire()})));
        }
        if (!a.outcomes().isEmpty() || a.state() != before) {
            UUID[] ids = a.outcomes().keySet().toArray(UUID[]::new);
            String[] os = a.outcomes().values().stream().map(Outcome::wire).toArray(String[]::new);
            String state = a.state() != before ? a.state().wire() : null;
            chain = chain.flatMap(x -> conn.preparedQuery(WorkflowSql.RECORD_DECISION)
                    .execute(Tuple.of(wf, state, JobStore.odt(now), ids, os)));
        }
        for (Advance.Activation act : a.activate()) {
            chain = chain.flatMap(x -> children.contains(act.jobId()) ? start(conn, act.jobId(), act.parents(), now, e)
                    : activate(conn, act.jobId(), act.parents(), now, e));
        }
        return chain.replaceWithVoid();
    }

    /** A workflow CANCEL's answer: the workflow afterwards, and whether this cancel changed it. */
    public record Cancelled(WorkflowRow workflow, boolean changed) {
    }

    /**
     * Workflow CANCEL: empty when unknown; unchanged when it is already terminal (nothing written). Cancels the
     * workflows nested in it too; a nested workflow cancelled on its own is a cancelled member of its parent,
     * which decides what that means (a chain fails) in the same transaction.
     */
    public Uni<Optional<Cancelled>> cancel(UUID id, String[] fromStates, Instant now, Decide decide) {
        return pool.withTransaction(conn -> conn.preparedQuery(WorkflowSql.LOCK_ROOT).execute(Tuple.of(id))
                .flatMap(l -> l.rowCount() == 0 ? Uni.createFrom().item(Optional.<Cancelled>empty())
                        : conn.preparedQuery(WorkflowSql.READ).execute(Tuple.of(id)).flatMap(read -> {
                    Row w = read.iterator().next();
                    if (WorkflowState.fromWire(w.getString("state")).orElseThrow().terminal()) {
                        return find(conn, id).map(v -> v.map(x -> new Cancelled(x.workflow(), false)));
                    }
                    UUID parent = w.getUUID("parent_id");
                    Uni<?> cancelled = conn.preparedQuery(WorkflowSql.CANCEL_TREES)
                            .execute(Tuple.of(new UUID[] {id}, JobStore.odt(now), fromStates));
                    if (parent != null) {
                        cancelled = cancelled.flatMap(x -> decideAndApply(conn, parent, null, now, decide,
                                new Enqueued()));
                    }
                    return cancelled.flatMap(x -> find(conn, id).map(v -> v.map(x2 -> new Cancelled(x2.workflow(), true))));
                })));
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

    private static Uni<Optional<WorkflowView>> find(SqlClient client, UUID id) {
        return client.preparedQuery(WorkflowSql.FIND).execute(Tuple.of(id)).flatMap(rows -> {
            if (rows.rowCount() == 0) {
                return Uni.createFrom().item(Optional.<WorkflowView>empty());
            }
            Row r = rows.iterator().next();
            WorkflowRow w = new WorkflowRow(r.getUUID("id"), WorkflowType.fromWire(r.getString("type")).orElseThrow(),
                    r.getString("name"), WorkflowState.fromWire(r.getString("state")).orElseThrow(),
                    JobRows.instant(r, "created_at"), JobRows.instant(r, "completed_at"),
                    JobRows.instant(r, "cancelled_at"), r.getUUID("parent_id"), null);
            return client.preparedQuery(WorkflowSql.FIND_MEMBERS).execute(Tuple.of(id)).map(ms -> {
                List<MemberRow> members = new ArrayList<>(ms.rowCount());
                for (Row m : ms) {
                    String o = m.getString("outcome");
                    boolean nested = m.getBoolean("child");
                    members.add(new MemberRow(m.getUUID("job_id"), MemberRole.fromWire(m.getString("role")).orElseThrow(),
                            m.getInteger("position"), o == null ? null : Outcome.fromWire(o).orElseThrow(),
                            member(m).jobState(), nested ? m.getString("child_type") : m.getString("type"),
                            m.getString("queue"), m.getInteger("attempt"), m.getString("result"),
                            m.getString("error"), JobRows.instant(m, "started_at"),
                            JobRows.instant(m, nested ? "child_completed_at" : "completed_at"), nested,
                            m.getString("step_key")));
                }
                return members;
            }).flatMap(members -> client.preparedQuery(WorkflowSql.FIND_TREE_JOBS).execute(Tuple.of(id))
                    .map(tree -> Optional.of(new WorkflowView(w, members, report(tree)))));
        });
    }

    private static WorkflowReport report(RowSet<Row> rows) {
        List<WorkflowReport.TreeJob> jobs = new ArrayList<>(rows.rowCount());
        Instant recorded = null;
        for (Row r : rows) {
            recorded = JobRows.instant(r, "recorded_start");
            String o = r.getString("outcome");
            String st = r.getString("state");
            jobs.add(new WorkflowReport.TreeJob(r.getUUID("job_id"), r.getUUID("workflow_id"),
                    MemberRole.fromWire(r.getString("role")).orElseThrow(), r.getInteger("position"),
                    o == null ? null : Outcome.fromWire(o).orElseThrow(),
                    st == null ? null : JobState.fromWire(st).orElseThrow(), r.getInteger("attempt"),
                    JobRows.instant(r, "started_at"), r.getString("error_code"), r.getString("error_message"),
                    r.getString("error")));
        }
        return WorkflowReport.of(recorded, jobs);
    }
}
