package dev.steadfast.service;

import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.store.Completion;
import dev.steadfast.store.JobRow;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import dev.steadfast.config.SteadfastConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.List;
import java.util.UUID;

/**
 * The worker-side OJS operations: FETCH (claim with a lease) and ACK. FAIL lives in {@link FailureService}.
 */
@ApplicationScoped
public class WorkerService {

    private final JobStore store;
    private final Clock clock;
    private final Telemetry telemetry;

    private final Coalescer<Completion, Completion.Done> acks;

    public WorkerService(JobStore store, Clock clock, Telemetry telemetry, SteadfastConfig config) {
        this.store = store;
        this.clock = clock;
        this.telemetry = telemetry;
        this.acks = new Coalescer<>(this::completeAll, config.batching().maxBatch(), config.batching().maxInFlight());
    }

    /**
     * Completes a batch of acks in one statement. Only the first ack of a job in the batch can succeed: a second
     * one for the same job answers as if it came after (the job is no longer active).
     */
    private Uni<List<Completion.Done>> completeAll(List<Completion> batch) {
        Instant now = JobService.now(clock);
        Set<UUID> first = new HashSet<>();
        List<Completion> unique = new ArrayList<>(batch.size());
        for (Completion c : batch) {
            if (first.add(c.jobId())) {
                unique.add(c);
            }
        }
        return store.complete(unique, now).map(done -> {
            Map<UUID, Completion.Done> byId = new HashMap<>();
            done.forEach(d -> byId.put(d.jobId(), d));
            List<Completion.Done> out = new ArrayList<>(batch.size());
            for (Completion c : batch) {
                out.add(byId.remove(c.jobId())); // a repeat finds nothing left: null
            }
            return out;
        });
    }

    /**
     * Claims up to {@code count} jobs from {@code queues}, taking the queues in the order given: a later queue
     * is asked only for what the earlier ones could not supply. Each queue's claim is one atomic statement.
     */
    public Uni<List<JobRow>> fetch(List<String> queues, int count, String workerId, Long visibilityMs) {
        Instant now = JobService.now(clock);
        return claimFrom(queues, 0, count, workerId, visibilityMs, now, new ArrayList<>()).invoke(jobs -> {
            for (JobRow j : jobs) {
                telemetry.started(j, workerId, now);
            }
        });
    }

    private Uni<List<JobRow>> claimFrom(List<String> queues, int i, int remaining, String workerId, Long vis,
                                        Instant now, List<JobRow> acc) {
        if (i == queues.size() || remaining == 0) {
            return Uni.createFrom().item(acc);
        }
        return store.claim(queues.get(i), remaining, workerId, vis, now).flatMap(got -> {
            acc.addAll(got);
            return claimFrom(queues, i + 1, remaining - got.size(), workerId, vis, now, acc);
        });
    }

    /**
     * SNOOZE (extension): hands an active job back to run at {@code until} (or after {@code delay}) without counting a failed attempt
     * or lengthening its backoff (Kathikon's {:sleep, s}, Oban's and River's snooze).
     */
    public Uni<JobRow> snooze(UUID id, String workerId, Duration delay, Instant until) {
        Instant now = JobService.now(clock);
        return store.snooze(id, workerId, until != null ? until : now.plus(delay), now).flatMap(o -> {
            if (o.isPresent()) {
                telemetry.requeued(o.get(), now);
                return Uni.createFrom().item(o.get());
            }
            return JobService.explain(store, id, Operation.SNOOZE).map(v -> (JobRow) null);
        });
    }

    /** ACK: completes an active job held by this worker and returns when; 404 / 409 otherwise. */
    public Uni<Instant> ack(UUID id, String resultJson, String workerId) {
        return acks.submit(new Completion(id, resultJson, workerId)).flatMap(d -> {
            if (d == null) {
                return JobService.explain(store, id, Operation.ACK).map(v -> (Instant) null);
            }
            telemetry.completed(id.toString(), d.type(), d.queue(), d.attempt(), d.startedAt(), d.completedAt());
            return Uni.createFrom().item(d.completedAt());
        });
    }
}
