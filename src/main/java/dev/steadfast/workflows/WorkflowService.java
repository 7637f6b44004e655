package dev.steadfast.workflows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobIds;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.WorkflowRules;
import dev.steadfast.domain.workflow.WorkflowState;
import dev.steadfast.domain.workflow.WorkflowType;
import dev.steadfast.events.Telemetry;
import dev.steadfast.events.WorkSignal;
import dev.steadfast.http.Json;
import dev.steadfast.jobs.EnqueueCommand;
import dev.steadfast.jobs.JobsConfig;
import dev.steadfast.jobs.PushService;
import dev.steadfast.model.Completion;
import dev.steadfast.model.JobRow;
import dev.steadfast.model.WorkflowRow;
import dev.steadfast.model.WorkflowView;
import dev.steadfast.queues.Backpressure;
import dev.steadfast.store.FailureWrite;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.NewJob;
import dev.steadfast.store.workflows.WorkflowStore;
import dev.steadfast.store.workflows.WorkflowStore.Finished;
import dev.steadfast.store.workflows.WorkflowStore.NewMember;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Workflows (ojs-workflows.md): create, get, cancel, and advancing them when a member job finishes. Every member
 * job is inserted when the workflow is created, those that must wait (chain steps after the first, batch
 * callbacks) as {@code pending}; the rules ({@link WorkflowRules}) then enqueue or cancel them. A worker's ACK or
 * FAIL of a member reaches {@link #completeStep} / {@link #failStep} (the batched hot-path statements skip
 * workflow jobs), which write the job and advance the workflow in one transaction under its row lock; the
 * {@code WorkflowAdvancer} sweep ({@link #advanceFinished}) accounts for members finished any other way.
 */
@ApplicationScoped
public class WorkflowService {

    private static final String[] CANCELLABLE = Arrays.stream(JobStateMachine.sourceNames(Operation.CANCEL))
            .filter(s -> !s.equals(JobState.ACTIVE.wire())).toArray(String[]::new);

    private final WorkflowStore store;
    private final PushService jobs;
    private final WorkSignal signal;
    private final Telemetry telemetry;
    private final ObjectMapper json;
    private final Clock clock;
    private final int maxJobs;
    private final Backpressure backpressure;

    public WorkflowService(WorkflowStore store, PushService jobs, WorkSignal signal,
                           Telemetry telemetry, ObjectMapper json, Clock clock, JobsConfig config,
                           Backpressure backpressure) {
        this.backpressure = backpressure;
        this.store = store;
        this.jobs = jobs;
        this.signal = signal;
        this.telemetry = telemetry;
        this.json = json;
        this.clock = clock;
        this.maxJobs = config.maxBatch();
    }

    /**
     * Creates and starts a workflow and the workflows nested in it: 400 for a bad definition, 409 when a job id
     * given is taken, 429 TENANT_LIMIT_EXCEEDED when its jobs would take their tenant past one of its limits (depth,
     * enqueue rate, scheduled jobs), 429 QUEUE_FULL when they would take a bounded queue past its depth bound. Every
     * member counts, nested workflows' included, also those that wait as pending (chain steps after the first,
     * callbacks): they are inserted now and a queue's depth counts them.
     */
    public Uni<WorkflowView> create(WorkflowCommand c) {
        Instant now = OperationTime.of(clock);
        int total = c.jobCount();
        String list = c.type() == WorkflowType.CHAIN ? "steps" : "jobs";
        if (c.steps().isEmpty() || total > maxJobs) {
            throw OjsException.invalidField(list, "'" + list + "' must hold 1 to " + maxJobs + " jobs"
                    + (c.callbacks().isEmpty() && total == c.steps().size() ? "." : " in all, callbacks and nested"
                    + " workflows' jobs included."));
        }
        UUID id = JobIds.next(now.toEpochMilli());
        List<WorkflowRow> workflows = new ArrayList<>();
        List<NewJob> rows = new ArrayList<>(total);
        List<NewMember> members = new ArrayList<>(total);
        List<EnqueueCommand> commands = new ArrayList<>(total);
        build(new Tree(workflows, rows, members, new HashSet<>(), now, commands), c, id, null, null, false, "");
        // the members' tenants' limits first, as a PUSH's (every member counts, the waiting ones too)
        return jobs.admitTenants(commands).flatMap(v -> backpressure.admitAll(rows.stream().map(NewJob::queue).toList()))
                .flatMap(admitted -> store.create(workflows, rows, members))
                .flatMap(taken -> jobs.refuseTakenOrRegisterQueues(taken, rows, now, "Workflow", "created"))
                .flatMap(v -> {
            for (NewJob j : rows) {
                JobRow row = JobRows.inserted(j);
                telemetry.pushed(row, now);
                if (row.state() == JobState.AVAILABLE) {
                    signal.wake(row.queue(), 1);
                } else if (row.state() == JobState.SCHEDULED) {
                    signal.dueAt(row.queue(), row.runAt());
                }
            }
            return get(id);
        });
    }

    /** What creating a workflow inserts: its rows, nested ones included, jobs and members. */
    private record Tree(List<WorkflowRow> workflows, List<NewJob> rows, List<NewMember> members, Set<UUID> ids,
                        Instant now, List<EnqueueCommand> commands) {
    }

    /**
     * Adds workflow {@code id} (nested in {@code parent} of the tree rooted at {@code root}, both null at the top)
     * and its members; {@code waits}: it waits for its turn (pending, all its jobs pending); {@code at}: where it
     * is in the request, for errors.
     */
    private void build(Tree t, WorkflowCommand c, UUID id, UUID parent, UUID root, boolean waits, String at) {
        String list = c.type() == WorkflowType.CHAIN ? "steps" : "jobs";
        if (c.steps().isEmpty()) {
            throw OjsException.invalidField(at + list, "'" + at + list + "' must hold at least one job.");
        }
        if (c.type() == WorkflowType.BATCH && c.callbacks().isEmpty()) {
            throw OjsException.invalidField(at + "callbacks", "A batch needs at least one of 'callbacks.on_complete',"
                    + " 'callbacks.on_success', 'callbacks.on_failure'; without callbacks use a group.");
        }
        t.workflows().add(new WorkflowRow(id, c.type(), c.name(), waits ? WorkflowState.PENDING : WorkflowState.RUNNING,
                t.now(), null, null, parent, root));
        for (int i = 0; i < c.steps().size(); i++) {
            boolean stepWaits = waits || (c.type() == WorkflowType.CHAIN && i > 0);
            String where = at + list + "[" + i + "]";
            if (c.steps().get(i) instanceof WorkflowCommand.Nested n) {
                UUID child = JobIds.next(t.now().toEpochMilli());
                t.members().add(new NewMember(id, child, MemberRole.STEP, i, null, true, null));
                build(t, n.workflow(), child, id, root == null ? id : root, stepWaits, where + ".");
            } else {
                EnqueueCommand job = ((WorkflowCommand.Job) c.steps().get(i)).job();
                add(t, id, job, stepWaits ? c.delay(MemberRole.STEP, i) : null, stepWaits, MemberRole.STEP, i, where,
                        c.stepKey(MemberRole.STEP, i));
            }
        }
        for (Map.Entry<MemberRole, EnqueueCommand> cb : c.callbacks().entrySet()) {
            add(t, id, cb.getValue(), c.delay(cb.getKey(), 0), true, cb.getKey(), 0,
                    at + "callbacks." + cb.getKey().wire(), c.stepKey(cb.getKey(), 0));
        }
    }

    /** {@code delay}: a waiting member's delay, applied when it is enqueued (WorkflowSql.ACTIVATE), or null. */
    private void add(Tree t, UUID workflowId, EnqueueCommand c, Duration delay, boolean waits, MemberRole role,
                     int position, String where, String stepKey) {
        Instant now = t.now();
        if (c.unique() != null || c.queueLimits() != null || c.rateLimit() != null) {
            String option = c.unique() != null ? "unique" : "rate_limit";
            throw new OjsException(ErrorCode.UNSUPPORTED, "Workflow validation failed: " + where + ": '" + option
                    + "' is not supported on a workflow's jobs; push such a job on its own.",
                    Map.of("path", where + ".options." + option));
        }
        EnqueueCommand withWorkflow = new EnqueueCommand(c.id(), c.type(), c.queue(), c.argsJson(), c.metaJson(),
                extensions(c.extensionsJson(), workflowId), c.priority(), c.tags(), c.timeoutMs(),
                c.visibilityTimeoutMs(), c.scheduledAt(), c.expiresAt(), waits || c.pending(), c.retry(), null, null,
                null, c.tenantId());
        NewJob j;
        try {
            j = jobs.prepare(withWorkflow, now);
        } catch (OjsException e) {
            Map<String, Object> d = new LinkedHashMap<>(e.details());
            d.put("path", where);
            throw new OjsException(e.code(), "Workflow validation failed: " + where + ": " + e.getMessage(), d);
        }
        if (!t.ids().add(j.id())) {
            throw new OjsException(ErrorCode.DUPLICATE, "The id '" + j.id() + "' appears twice in the workflow.",
                    Map.of("existing_job_id", j.id().toString(), "path", where));
        }
        t.rows().add(j);
        t.commands().add(withWorkflow);
        t.members().add(new NewMember(workflowId, j.id(), role, position, delay == null ? null : delay.toMillis(),
                false, stepKey));
    }

    /** The job's extension attributes plus {@code workflow_id} (JobContext.workflow_id, ojs-workflows.md 7.1). */
    private String extensions(String given, UUID workflowId) {
        ObjectNode n;
        try {
            n = given == null ? json.createObjectNode() : (ObjectNode) json.readTree(given);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("extensions are not JSON", e);
        }
        n.put("workflow_id", workflowId.toString());
        return Json.write(json, n);
    }

    public Uni<WorkflowView> get(UUID id) {
        return store.find(id).map(o -> o.orElseThrow(() -> OjsException.notFound("workflow", id.toString())));
    }

    /** CANCEL: 404 when unknown, 409 when already terminal; members not yet started are cancelled. */
    public Uni<WorkflowView> cancel(UUID id) {
        Instant now = OperationTime.of(clock);
        return store.cancel(id, CANCELLABLE, now, WorkflowRules::advance).flatMap(o -> {
            WorkflowStore.Cancelled r = o.orElseThrow(() -> OjsException.notFound("workflow", id.toString()));
            WorkflowRow w = r.workflow();
            if (!r.changed()) {
                throw new OjsException(ErrorCode.CONFLICT, "Workflow " + id + " is already in terminal state '"
                        + w.state().wire() + "'.", Map.of("workflow_id", id.toString(), "current_state", w.state().wire()));
            }
            return get(id);
        });
    }

    /**
     * A worker's ACK of a workflow step, written and advanced in one transaction; empty when not applicable.
     * {@code workflow}: the step's workflow when the claim told it (null: read in the transaction).
     */
    public Uni<Optional<Completion.Done>> completeStep(Completion c, UUID workflow) {
        Instant now = OperationTime.of(clock);
        return store.completeStep(c, workflow, now, WorkflowRules::advance).map(o -> o.map(this::woken));
    }

    /** A worker's FAIL of a workflow step, as {@link #completeStep}. */
    public Uni<Optional<JobRow>> failStep(FailureWrite w, UUID workflow, int keep, Instant fence) {
        Instant now = OperationTime.of(clock);
        return store.failStep(w, workflow, keep, fence, now, WorkflowRules::advance).map(o -> o.map(this::woken));
    }

    private <T> T woken(Finished<T> f) {
        wake(f.advanced());
        return f.written();
    }

    private void wake(WorkflowStore.Advanced a) {
        a.queues().forEach(q -> signal.wake(q, 1));
        a.scheduled().forEach(d -> signal.dueAt(d.queue(), d.at()));
    }

    /**
     * Accounts for members finished outside a worker's ACK/FAIL (lease reaper, expiry, a single job's cancel,
     * operators): up to {@code limit} workflows, each in its own transaction; answers how many were looked at.
     */
    public Uni<Integer> advanceFinished(int limit) {
        Instant now = OperationTime.of(clock);
        return store.unaccounted(limit).flatMap(ids -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (UUID id : ids) {
                chain = chain.flatMap(v -> store.advance(id, now, WorkflowRules::advance).invoke(this::wake)
                        .replaceWithVoid());
            }
            return chain.map(v -> ids.size());
        });
    }

    /** The workflow a job belongs to, for the console. */
    public Uni<Optional<UUID>> workflowOf(UUID jobId) {
        return store.workflowOf(jobId);
    }

    /** A workflow, or empty when unknown (the console: one pruned between two reads is simply not shown). */
    public Uni<Optional<WorkflowView>> find(UUID id) {
        return store.find(id);
    }
}
