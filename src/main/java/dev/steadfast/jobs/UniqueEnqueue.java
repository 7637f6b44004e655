package dev.steadfast.jobs;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.unique.UniqueDecider;
import dev.steadfast.domain.unique.UniqueDecision;
import dev.steadfast.domain.unique.UniqueHolder;
import dev.steadfast.domain.unique.UniquePolicy;
import dev.steadfast.events.Telemetry;
import dev.steadfast.events.WorkSignal;
import dev.steadfast.model.JobRow;
import dev.steadfast.queues.QueueRegistry;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.NewJob;
import dev.steadfast.store.UniqueStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * PUSH of jobs in one transaction with per-job outcomes: the path of jobs with a unique policy (single or batch)
 * and of the bulk endpoint. Under the keys' locks ({@link UniqueStore}) it reads the holders, decides each job in
 * order with {@link UniqueDecider} (a job earlier in the same batch holds its key for the later ones), cancels the
 * replaced jobs and inserts the rest, then commits. {@code atomic}: the first refusal fails the whole PUSH and
 * rolls everything back; otherwise refused jobs are reported and the others committed.
 */
@ApplicationScoped
class UniqueEnqueue {

    private final UniqueStore store;
    private final JobStore jobs;
    private final Telemetry telemetry;
    private final QueueRegistry queues;
    private final WorkSignal signal;

    public UniqueEnqueue(UniqueStore store, JobStore jobs, Telemetry telemetry, QueueRegistry queues,
                         WorkSignal signal) {
        this.store = store;
        this.jobs = jobs;
        this.telemetry = telemetry;
        this.queues = queues;
        this.signal = signal;
    }

    /** A validated job and its policy (null: no policy), or the refusal its validation produced. */
    record Candidate(NewJob job, UniquePolicy policy, OjsException refused) {
    }

    /** The plan made under the locks. */
    private static final class Plan {
        final PushOutcome[] outcomes;
        final UUID[] dedupIds;
        final List<NewJob> insert = new ArrayList<>();
        final Map<UUID, JobState> cancel = new LinkedHashMap<>();
        List<JobRow> cancelled = List.of();

        Plan(int n) {
            outcomes = new PushOutcome[n];
            dedupIds = new UUID[n];
        }
    }

    Uni<List<PushOutcome>> push(List<Candidate> candidates, boolean atomic, Instant now) {
        Set<String> keys = new HashSet<>();
        Set<JobState> states = EnumSet.noneOf(JobState.class);
        for (Candidate c : candidates) {
            if (c.policy() != null) {
                keys.add(c.job().uniqueKey());
                states.addAll(c.policy().states());
            }
        }
        return store.underLocks(keys, tx -> (keys.isEmpty() ? Uni.createFrom().item(Map.<String, List<UniqueHolder>>of())
                : tx.holders(keys, states)).flatMap(holders -> {
            Plan plan = plan(candidates, holders, atomic, now);
            return tx.insert(plan.insert).flatMap(inserted -> {
                for (int i = 0; i < candidates.size(); i++) {
                    if (plan.outcomes[i] == null && plan.dedupIds[i] == null
                            && !inserted.contains(candidates.get(i).job().id())) {
                        OjsException e = new OjsException(ErrorCode.DUPLICATE, "A job with id '"
                                + candidates.get(i).job().id() + "' already exists.",
                                Map.of("existing_job_id", candidates.get(i).job().id().toString()));
                        if (atomic) {
                            throw candidates.size() == 1 ? e : e.atIndex(i);
                        }
                        plan.outcomes[i] = new PushOutcome.Refused(e);
                    }
                }
                return tx.cancel(List.copyOf(plan.cancel.keySet()), JobStateMachine.sourceNames(Operation.CANCEL), now);
            }).map(cancelled -> {
                plan.cancelled = cancelled;
                return plan;
            });
        })).flatMap(plan -> after(candidates, plan, now));
    }

    private Plan plan(List<Candidate> candidates, Map<String, List<UniqueHolder>> found, boolean atomic, Instant now) {
        Plan plan = new Plan(candidates.size());
        Map<String, List<UniqueHolder>> holders = new HashMap<>();
        found.forEach((k, v) -> holders.put(k, new ArrayList<>(v)));
        for (int i = 0; i < candidates.size(); i++) {
            Candidate c = candidates.get(i);
            if (c.refused() != null) { // already names its index
                if (atomic) {
                    throw c.refused();
                }
                plan.outcomes[i] = new PushOutcome.Refused(c.refused());
                continue;
            }
            NewJob job = c.job();
            if (c.policy() != null) {
                List<UniqueHolder> hs = holders.computeIfAbsent(job.uniqueKey(), k -> new ArrayList<>());
                UniqueDecision d = UniqueDecider.decide(c.policy(), hs, now);
                if (d instanceof UniqueDecision.Reject r) {
                    OjsException e = duplicate(r.holder(), job.uniqueKey());
                    if (atomic) {
                        throw candidates.size() == 1 ? e : e.atIndex(i);
                    }
                    plan.outcomes[i] = new PushOutcome.Refused(e);
                    continue;
                }
                if (d instanceof UniqueDecision.Ignore g) {
                    plan.dedupIds[i] = g.holder().id();
                    continue;
                }
                if (d instanceof UniqueDecision.Replace rp) {
                    for (UniqueHolder h : rp.cancel()) {
                        plan.cancel.put(h.id(), h.state());
                        hs.remove(h);
                    }
                    if (rp.keepRunAt() != null) {
                        job = keepSchedule(job, rp.keepRunAt(), now);
                    }
                }
                hs.add(new UniqueHolder(job.id(), job.state(), job.createdAt(), job.runAt()));
            }
            plan.insert.add(job);
        }
        return plan;
    }

    /** After commit: read deduplicated holders, register queues, emit events, wake fetches. */
    private Uni<List<PushOutcome>> after(List<Candidate> candidates, Plan plan, Instant now) {
        Map<UUID, JobState> previous = plan.cancel;
        for (JobRow r : plan.cancelled) {
            telemetry.cancelled(r, previous.get(r.id()), "unique-replace", now);
        }
        Set<String> q = new HashSet<>();
        for (int i = 0; i < candidates.size(); i++) {
            if (plan.outcomes[i] == null && plan.dedupIds[i] == null) {
                q.add(candidates.get(i).job().queue());
            }
        }
        Set<UUID> cancelledIds = new HashSet<>();
        plan.cancelled.forEach(r -> cancelledIds.add(r.id()));
        Map<UUID, NewJob> inserted = new HashMap<>();
        plan.insert.forEach(j -> inserted.put(j.id(), j));
        return queues.ensureAll(q, now).flatMap(v -> dedups(plan)).map(existing -> {
            List<PushOutcome> out = new ArrayList<>(candidates.size());
            for (int i = 0; i < candidates.size(); i++) {
                if (plan.outcomes[i] != null) {
                    out.add(plan.outcomes[i]);
                } else if (plan.dedupIds[i] != null) {
                    JobRow holder = existing.get(plan.dedupIds[i]);
                    out.add(holder != null ? new PushOutcome.Deduplicated(holder) : new PushOutcome.Refused(
                            new OjsException(ErrorCode.CONFLICT, "The job holding the unique key was deleted just"
                                    + " now; push again.", Map.of("existing_job_id", plan.dedupIds[i].toString()))));
                } else {
                    JobRow row = JobRows.inserted(inserted.get(candidates.get(i).job().id()));
                    telemetry.pushed(row, now);
                    if (cancelledIds.contains(row.id())) {
                        out.add(new PushOutcome.Created(plan.cancelled.stream().filter(r -> r.id().equals(row.id()))
                                .findFirst().orElse(row)));
                    } else {
                        signal.announce(row);
                        out.add(new PushOutcome.Created(row));
                    }
                }
            }
            return out;
        });
    }

    private Uni<Map<UUID, JobRow>> dedups(Plan plan) {
        List<UUID> ids = new ArrayList<>();
        for (UUID id : plan.dedupIds) {
            if (id != null && !ids.contains(id)) {
                ids.add(id);
            }
        }
        Map<UUID, JobRow> out = new HashMap<>();
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (UUID id : ids) {
            chain = chain.flatMap(v -> jobs.find(id).invoke(o -> o.ifPresent(r -> out.put(id, r)))).replaceWithVoid();
        }
        return chain.map(v -> out);
    }

    /**
     * The replacement keeps the replaced job's schedule ({@code replace_except_schedule}): scheduled for then, or, when
     * that has passed, available from now, like every job that becomes claimable (domain.ClaimCursors relies on it).
     */
    private static NewJob keepSchedule(NewJob j, Instant runAt, Instant now) {
        boolean due = !runAt.isAfter(now);
        return new NewJob(j.id(), j.type(), j.queue(), j.argsJson(), j.metaJson(), j.extensionsJson(), j.priority(),
                j.tags(), due ? JobState.AVAILABLE : JobState.SCHEDULED, j.maxAttempts(), j.retryPolicyJson(),
                j.timeoutMs(), j.visibilityTimeoutMs(), due ? now : runAt, runAt, j.expiresAt(), j.createdAt(),
                due ? now : j.enqueuedAt(), j.uniqueKey(), j.clientId(), j.rateLimitKey());
    }

    static OjsException duplicate(UniqueHolder h, String key) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("existing_job_id", h.id().toString());
        d.put("existing_job_state", h.state().wire());
        d.put("unique_key", key);
        return new OjsException(ErrorCode.DUPLICATE, "A job with the same unique key already exists (job "
                + h.id() + ", " + h.state().wire() + ").", d);
    }
}
