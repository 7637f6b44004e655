package dev.steadfast.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.coalescing.Coalescer;
import dev.steadfast.coalescing.Coalescers;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobIds;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.domain.TenantId;
import dev.steadfast.domain.limits.QueueLimits;
import dev.steadfast.domain.limits.RateLimitPolicy;
import dev.steadfast.domain.retry.RetryPolicy;
import dev.steadfast.domain.unique.UniqueKey;
import dev.steadfast.domain.unique.UniquePolicy;
import dev.steadfast.events.Telemetry;
import dev.steadfast.events.WorkSignal;
import dev.steadfast.model.JobRow;
import dev.steadfast.queues.Backpressure;
import dev.steadfast.queues.QueueLimiter;
import dev.steadfast.queues.QueueRegistry;
import dev.steadfast.queues.RateLimits;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.NewJob;
import dev.steadfast.tenants.TenantService;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * PUSH in its three shapes: one job ({@link #enqueue}, {@link #push}), a batch all or nothing ({@link #pushAll}) and
 * bulk with an outcome per job ({@link #pushBulk}), each first admitted by the tenants' limits and the queues' depth
 * bounds. Each reads the clock once, applies the domain rules, and makes one atomic change through the store.
 */
@ApplicationScoped
public class PushService {

    /**
     * From this many jobs a batch PUSH renders its answer beside the insert instead of after it: a 1,000-job answer
     * is milliseconds of JSON, far more than the hand-off to a worker thread.
     */
    static final int ANSWER_BESIDE_INSERT = 64;

    private final JobStore store;
    private final Clock clock;
    private final JobsConfig config;
    private final RetryPolicies policies;
    private final QueueRegistry queues;
    private final Telemetry telemetry;
    private final ObjectMapper json;
    private final Coalescer<NewJob, Boolean> inserts;
    private final WorkSignal signal;
    private final UniqueEnqueue unique;
    private final QueueLimiter limiter;
    private final Backpressure backpressure;
    private final RateLimits rateLimits;
    private final TenantService tenants;

    public PushService(JobStore store, Clock clock, JobsConfig config, RetryPolicies policies,
                       QueueRegistry queues, Telemetry telemetry, ObjectMapper json, WorkSignal signal,
                       UniqueEnqueue unique, QueueLimiter limiter, Coalescers coalescers, Backpressure backpressure,
                       RateLimits rateLimits, TenantService tenants) {
        this.tenants = tenants;
        this.rateLimits = rateLimits;
        this.backpressure = backpressure;
        this.signal = signal;
        this.unique = unique;
        this.limiter = limiter;
        this.store = store;
        this.clock = clock;
        this.config = config;
        this.policies = policies;
        this.queues = queues;
        this.telemetry = telemetry;
        this.json = json;
        this.inserts = coalescers.create("push", this::insertAll);
    }

    /**
     * PUSH with the Level 4 options: a job without a unique policy takes the coalesced path ({@link #push}); one
     * with a policy is decided under its key's lock ({@link UniqueEnqueue}): created, deduplicated (ignore) or
     * refused (409 duplicate). A {@code rate_limit} option first sets its queue's limits. First of all the queue's
     * depth bound admits it ({@link Backpressure}: 429 QUEUE_FULL); a created job carries the queue's pressure.
     */
    public Uni<PushOutcome> enqueue(EnqueueCommand c) {
        return admitTenants(Collections.singletonList(c)).flatMap(v -> backpressure.admit(Collections.singletonMap(queueOf(c), 1)).flatMap(pressure ->
                enqueueAdmitted(c).map(o -> pressure != null && o instanceof PushOutcome.Created cr
                        ? new PushOutcome.Created(cr.job(), pressure) : o)));
    }

    private Uni<PushOutcome> enqueueAdmitted(EnqueueCommand c) {
        Uni<Void> limits = c.queueLimits() == null ? Uni.createFrom().voidItem()
                : limiter.set(queueOf(c), c.queueLimits()).replaceWithVoid();
        if (c.rateLimit() != null) {
            // the key's row exists before its job does: a claim never meets a keyed job without its limits
            limits = limits.flatMap(v -> rateLimits.record(List.of(c.rateLimit())));
        }
        if (c.unique() == null) {
            return limits.flatMap(v -> push(c)).map(j -> (PushOutcome) new PushOutcome.Created(j))
                    .invoke(o -> keyed(c, o));
        }
        return limits.flatMap(v -> {
            Instant now = OperationTime.of(clock);
            NewJob job = prepare(c, now);
            return unique.push(List.of(new UniqueEnqueue.Candidate(job, c.unique(), null)), true, now);
        }).map(out -> {
            if (out.get(0) instanceof PushOutcome.Refused r) {
                throw r.error();
            }
            return out.get(0);
        }).invoke(o -> keyed(c, o));
    }

    /** A created job with a rate limit key makes its queue take the keyed claim path on this instance at once. */
    private void keyed(EnqueueCommand c, PushOutcome o) {
        if (c.rateLimit() != null && o instanceof PushOutcome.Created cr) {
            rateLimits.pushed(cr.job().queue());
        }
    }

    /**
     * Bulk PUSH with per-job outcomes (ojs-bulk-operations.md 5): every job is validated, then all are decided and
     * inserted in one transaction. {@code atomic}: any refusal refuses all (the first one is thrown, naming its
     * index); otherwise each refused job is reported and the rest committed. {@code unreadable}: the jobs, by
     * index, the API layer could not read (their slots in {@code commands} are null). First the depth bounds admit
     * the readable jobs, all or none (429 QUEUE_FULL, in either mode: ojs-backpressure.md 9.3).
     */
    public Uni<List<PushOutcome>> pushBulk(List<EnqueueCommand> commands, Map<Integer, OjsException> unreadable,
                                           boolean atomic) {
        return admitTenants(commands).flatMap(v -> admit(commands))
                .flatMap(p -> pushBulkAdmitted(commands, unreadable, atomic));
    }

    /** The depth bounds' admission of the jobs of one request (null slots skipped). */
    private Uni<Double> admit(List<EnqueueCommand> commands) {
        List<String> q = new ArrayList<>(commands.size());
        for (EnqueueCommand c : commands) {
            if (c != null) {
                q.add(c.queue());
            }
        }
        return backpressure.admitAll(q);
    }

    private Uni<List<PushOutcome>> pushBulkAdmitted(List<EnqueueCommand> commands,
                                                    Map<Integer, OjsException> unreadable, boolean atomic) {
        Instant now = OperationTime.of(clock);
        List<UniqueEnqueue.Candidate> candidates = new ArrayList<>(commands.size());
        Set<UUID> ids = new HashSet<>();
        Map<String, QueueLimits> limits = new LinkedHashMap<>();
        List<RateLimitPolicy> keys = new ArrayList<>();
        for (int i = 0; i < commands.size(); i++) {
            EnqueueCommand c = commands.get(i);
            if (unreadable.containsKey(i)) {
                candidates.add(new UniqueEnqueue.Candidate(null, null, unreadable.get(i)));
                continue;
            }
            try {
                NewJob j = prepare(c, now);
                if (!ids.add(j.id())) {
                    throw new OjsException(ErrorCode.DUPLICATE, "The id '" + j.id() + "' appears twice in the batch.",
                            Map.of("existing_job_id", j.id().toString()));
                }
                if (c.queueLimits() != null) {
                    limits.put(j.queue(), c.queueLimits());
                }
                if (c.rateLimit() != null) {
                    keys.add(c.rateLimit());
                }
                candidates.add(new UniqueEnqueue.Candidate(j, c.unique(), null));
            } catch (OjsException e) {
                if (atomic) {
                    throw e.atIndex(i);
                }
                candidates.add(new UniqueEnqueue.Candidate(null, null, e.atIndex(i)));
            }
        }
        Uni<Void> setLimits = Uni.createFrom().voidItem();
        for (Map.Entry<String, QueueLimits> e : limits.entrySet()) {
            setLimits = setLimits.flatMap(v -> limiter.set(e.getKey(), e.getValue()).replaceWithVoid());
        }
        return setLimits.flatMap(v -> rateLimits.record(keys)).flatMap(v -> unique.push(candidates, atomic, now))
                .invoke(out -> {
                    for (int i = 0; i < out.size() && i < commands.size(); i++) {
                        if (commands.get(i) != null) {
                            keyed(commands.get(i), out.get(i));
                        }
                    }
                });
    }

    private static String queueOf(EnqueueCommand c) {
        return c.queue() == null ? JobRules.DEFAULT_QUEUE : c.queue();
    }

    /** Enqueues one job; 409 duplicate when its id is taken. */
    public Uni<JobRow> push(EnqueueCommand c) {
        Instant now = OperationTime.of(clock);
        NewJob job = prepare(c, now);
        return inserts.submit(job).map(inserted -> {
            if (!inserted) {
                throw new OjsException(ErrorCode.DUPLICATE, "A job with id '" + job.id() + "' already exists.",
                        Map.of("existing_job_id", job.id().toString()));
            }
            JobRow row = JobRows.inserted(job);
            telemetry.pushed(row, now);
            announce(row);
            return row;
        });
    }

    /**
     * PUSH batch (ojs-http-binding.md 9.2): every job is validated first (a bad one rejects the batch, naming its
     * index), then all are inserted in one transaction; if any id is taken, none is inserted (409 duplicate).
     * First the depth bounds admit the whole batch or refuse it (429 QUEUE_FULL). Answers {@code answer} of the
     * jobs as written; for a batch of at least {@link #ANSWER_BESIDE_INSERT} plain jobs it is rendered on a worker
     * thread while PostgreSQL inserts them (the rows are known before the insert), and dropped if the insert fails.
     */
    public <A> Uni<A> pushAll(List<EnqueueCommand> commands, Function<List<JobRow>, A> answer) {
        return admitTenants(commands).flatMap(v -> admit(commands)).flatMap(p -> pushAllAdmitted(commands, answer));
    }

    /**
     * The tenants' limits (depth, enqueue rate, scheduled jobs) admit the jobs of one request (null slots skipped),
     * and their queues take the fair claim ({@link TenantService#admit}): every PUSH shape, and a workflow's members
     * (WorkflowService). A job's tenant is the one its command carries (the parser's reading of meta.tenant_id).
     */
    public Uni<Void> admitTenants(List<EnqueueCommand> commands) {
        Map<String, Integer> byTenant = null;
        Map<String, Integer> scheduled = null;
        List<Map.Entry<String, String>> tenantQueues = null;
        Instant now = OperationTime.of(clock);
        int untenanted = 0;
        for (EnqueueCommand c : commands) {
            if (c == null) {
                continue;
            }
            String t = c.tenantId();
            if (t == null) {
                untenanted++; // the default tenant's (ojs-multi-tenancy 15.3)
                continue;
            }
            if (byTenant == null) {
                byTenant = new LinkedHashMap<>();
                scheduled = new HashMap<>();
                tenantQueues = new ArrayList<>();
            }
            byTenant.merge(t, 1, Integer::sum);
            if (!c.pending() && c.scheduledAt() != null && c.scheduledAt().isAfter(now)) {
                scheduled.merge(t, 1, Integer::sum); // becomes scheduled (prepare)
            }
            tenantQueues.add(Map.entry(queueOf(c), t));
        }
        if (byTenant == null) {
            return untenanted == 0 ? Uni.createFrom().voidItem() : tenants.admitUntenanted(untenanted);
        }
        if (untenanted > 0) {
            byTenant.put(TenantId.DEFAULT, untenanted);
        }
        return tenants.admit(byTenant, scheduled, tenantQueues);
    }

    private <A> Uni<A> pushAllAdmitted(List<EnqueueCommand> commands, Function<List<JobRow>, A> answer) {
        if (commands.stream().anyMatch(c -> c.unique() != null || c.queueLimits() != null || c.rateLimit() != null)) {
            return pushBulkAdmitted(commands, Map.of(), true).map(outcomes -> answer.apply(outcomes.stream().map(o -> {
                if (o instanceof PushOutcome.Refused r) {
                    throw r.error();
                }
                return o instanceof PushOutcome.Created cr ? cr.job() : ((PushOutcome.Deduplicated) o).existing();
            }).toList()));
        }
        Instant now = OperationTime.of(clock);
        List<NewJob> jobs = new ArrayList<>(commands.size());
        Set<UUID> ids = new HashSet<>();
        for (int i = 0; i < commands.size(); i++) {
            NewJob j;
            try {
                j = prepare(commands.get(i), now);
            } catch (OjsException e) {
                throw e.atIndex(i);
            }
            if (!ids.add(j.id())) {
                throw new OjsException(ErrorCode.DUPLICATE, "The id '" + j.id()
                        + "' appears twice in the batch.", Map.of("existing_job_id", j.id().toString())).atIndex(i);
            }
            jobs.add(j);
        }
        List<JobRow> rows = new ArrayList<>(jobs.size());
        jobs.forEach(j -> rows.add(JobRows.inserted(j)));
        Uni<Boolean> written = store.insertAllOrNothing(jobs)
                .flatMap(taken -> refuseTakenOrRegisterQueues(taken, jobs, now, "Batch", "enqueued"))
                .replaceWith(Boolean.TRUE);
        if (rows.size() < ANSWER_BESIDE_INSERT) {
            return written.map(v -> answer.apply(pushed(rows, now)));
        }
        // combine subscribes to the insert first, so the statement is on its way while the worker renders; a
        // failure of either waits for the other (collectFailures), so a failed rendering never cuts the insert's
        // steps short, and a single failure (a 409 for a taken id) passes through as it is
        Uni<A> rendered = Uni.createFrom().item(() -> answer.apply(rows))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
        return Uni.combine().all().unis(written, rendered).collectFailures().with((v, a) -> {
            pushed(rows, now);
            return a;
        });
    }

    /** The batch is in: its telemetry and its wake-ups. */
    private List<JobRow> pushed(List<JobRow> rows, Instant now) {
        rows.forEach(row -> telemetry.pushed(row, now));
        rows.forEach(this::announce);
        return rows;
    }

    /**
     * The end of an all-or-nothing insert of {@code rows}: when some ids were already {@code taken}, nothing was
     * written, and the request is refused with 409 duplicate naming them ("{what} rejected: ...; nothing was
     * {undone}."); otherwise the jobs' queues are registered.
     */
    public Uni<Void> refuseTakenOrRegisterQueues(Set<UUID> taken, List<NewJob> rows, Instant now, String what,
                                                 String undone) {
        if (!taken.isEmpty()) {
            return Uni.createFrom().failure(new OjsException(ErrorCode.DUPLICATE, what + " rejected: " + taken.size()
                    + " job id(s) already exist; nothing was " + undone + ".",
                    Map.of("existing_job_ids", taken.stream().map(UUID::toString).sorted().toList())));
        }
        Set<String> q = new HashSet<>();
        rows.forEach(j -> q.add(j.queue()));
        return queues.ensureAll(q, now);
    }

    private void announce(JobRow row) {
        signal.announce(row);
    }

    /**
     * Inserts a batch of jobs in one statement and registers their queues; answers, per job, whether it was
     * new. Within a batch only the first job with a given id can be new.
     */
    private Uni<List<Boolean>> insertAll(List<NewJob> batch) {
        Set<UUID> first = new HashSet<>();
        List<NewJob> unique = new ArrayList<>(batch.size());
        for (NewJob j : batch) {
            if (first.add(j.id())) {
                unique.add(j);
            }
        }
        return store.insert(unique).flatMap(inserted -> {
            Set<String> newQueues = new HashSet<>();
            unique.stream().filter(j -> inserted.contains(j.id())).forEach(j -> newQueues.add(j.queue()));
            return queues.ensureAll(newQueues, batch.get(0).createdAt()).map(v -> {
                List<Boolean> out = new ArrayList<>(batch.size());
                for (NewJob j : batch) {
                    out.add(inserted.remove(j.id())); // a repeat of an id finds it already taken
                }
                return out;
            });
        });
    }

    /** Validates a PUSH and turns it into the row to insert. */
    public NewJob prepare(EnqueueCommand c, Instant now) {
        String type = JobRules.checkType(c.type());
        String queue = JobRules.checkQueue(c.queue() == null ? JobRules.DEFAULT_QUEUE : c.queue());
        int priority = c.priority() == null ? 0 : JobRules.checkPriority(c.priority());
        List<String> tags = JobRules.checkTags(c.tags() == null ? List.of() : c.tags());
        long maxMs = config.maxTimeout().toMillis();
        long timeout = c.timeoutMs() == null ? config.defaultTimeout().toMillis()
                : JobRules.checkPositiveMillis("options.timeout_ms", c.timeoutMs(), maxMs);
        long visibility = c.visibilityTimeoutMs() == null ? config.defaultVisibilityTimeout().toMillis()
                : JobRules.checkPositiveMillis("options.visibility_timeout_ms", c.visibilityTimeoutMs(), maxMs);
        ResolvedPolicy policy = policy(type, queue, c.retry());
        UUID id = c.id() == null ? JobIds.next(now.toEpochMilli()) : UUID.fromString(JobRules.checkId(c.id()));
        JobState state;
        Instant runAt;
        if (c.pending()) {
            state = JobState.PENDING;
            runAt = null;
        } else if (c.scheduledAt() != null && c.scheduledAt().isAfter(now)) {
            state = JobState.SCHEDULED;
            runAt = c.scheduledAt();
        } else {
            state = JobState.AVAILABLE;
            runAt = now;
        }
        String metaJson = c.metaJson() == null ? "{}" : c.metaJson();
        return new NewJob(id, type, queue, c.argsJson(), metaJson, c.extensionsJson(), priority, tags, state,
                policy.maxAttempts(), policy.json(), timeout, visibility, runAt, c.scheduledAt(), c.expiresAt(), now,
                now, c.unique() == null ? null : uniqueKey(c.unique(), type, queue, c.argsJson(), metaJson),
                c.id() != null, c.rateLimit() == null ? null : c.rateLimit().key());
    }

    /** The job's uniqueness key (ojs-unique-jobs.md 4); args and meta are decoded only for jobs with a policy. */
    private String uniqueKey(UniquePolicy p, String type, String queue, String argsJson, String metaJson) {
        try {
            return UniqueKey.of(p, type, queue, json.readValue(argsJson, List.class), json.readValue(metaJson, Map.class));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("args and meta were serialized by this server", e);
        }
    }

    /** An effective retry policy's max_attempts and its stored form (StoredRetryPolicy: {} for the default). */
    private record ResolvedPolicy(int maxAttempts, String json) {
    }

    /** The policies of jobs that brought none of their own, per type and queue (configuration is fixed at start). */
    private final ConcurrentHashMap<String, ResolvedPolicy> scopePolicies =
            new ConcurrentHashMap<>();

    /**
     * The job's effective policy. A job without a policy of its own gets its type's and queue's, resolved and
     * written as JSON once per (type, queue) rather than on every PUSH (bulk enqueue spent a visible share of its
     * time there); a bounded cache, emptied when it grows past 10,000 pairs.
     */
    private ResolvedPolicy policy(String type, String queue, Map<String, Object> partial) {
        if (partial != null) {
            RetryPolicy p = policies.resolve(type, queue, partial);
            return new ResolvedPolicy(p.maxAttempts(), StoredRetryPolicy.store(json, p));
        }
        String key = type + '\u0000' + queue;
        ResolvedPolicy cached = scopePolicies.get(key);
        if (cached == null) {
            RetryPolicy p = policies.resolve(type, queue, null);
            cached = new ResolvedPolicy(p.maxAttempts(), StoredRetryPolicy.store(json, p));
            if (scopePolicies.size() > 10_000) {
                scopePolicies.clear();
            }
            scopePolicies.put(key, cached);
        }
        return cached;
    }
}
