package dev.steadfast.work;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.maintenance.WorkerTimeoutConfig;
import dev.steadfast.model.WorkerRow;
import dev.steadfast.store.workers.WorkerStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * BEAT (ojs-worker-protocol.md section 4): records that the worker is alive, extends the leases it holds
 * (RET-13: a valid heartbeat extends the reservation rather than letting it be requeued), and answers the
 * directive for the worker. A heartbeat naming a job leased to another worker is refused with 409 and changes
 * nothing: that worker lost the job (its lease ran out and someone else took it) and should stop. It answers
 * the directive for the worker: {@code running}, or {@code quiet} / {@code terminate} when an operator asked for it.
 * The check, the lease extension and the worker record are one transaction: a heartbeat answered with an error
 * has changed nothing.
 */
@ApplicationScoped
public class HeartbeatService {

    static final Set<String> DIRECTIVES = Set.of("running", "quiet", "terminate");

    private final WorkerStore workers;
    private final Clock clock;
    private final WorkersConfig workersConfig;
    private final WorkerTimeoutConfig timeoutConfig;

    public HeartbeatService(WorkerStore workers, Clock clock, WorkersConfig workersConfig,
                            WorkerTimeoutConfig timeoutConfig) {
        this.workers = workers;
        this.clock = clock;
        this.workersConfig = workersConfig;
        this.timeoutConfig = timeoutConfig;
    }

    /** The answer to a heartbeat: the directive and the jobs whose lease was extended. */
    public record Beat(String directive, List<UUID> extended, Instant serverTime) {
    }

    /**
     * @param jobIds the jobs the worker reports as running, or null to extend every lease it holds
     */
    public Uni<Beat> beat(String workerId, List<UUID> jobIds, Long visibilityMs, String hostname,
                          List<String> queues) {
        Instant now = OperationTime.of(clock);
        UUID[] ids = jobIds == null ? null : jobIds.toArray(UUID[]::new);
        return workers.beat(workerId, ids, visibilityMs, hostname,
                queues == null ? null : queues.toArray(String[]::new), now).map(beat -> {
                    if (!beat.foreign().isEmpty()) {
                        Map<String, Object> d = new LinkedHashMap<>();
                        d.put("worker_id", workerId);
                        beat.foreign().forEach((job, holder) -> d.put(job.toString(), holder));
                        throw new OjsException(ErrorCode.CONFLICT, "Worker '" + workerId + "' does not hold the lease"
                                + " of " + beat.foreign().size() + " of the jobs it reported (details map each job to"
                                + " its holder); nothing was extended.", d);
                    }
                    String d = beat.directive();
                    if ("running".equals(d) && workersConfig.testDirectives()) {
                        d = beat.extended().stream().map(WorkerStore.Extended::testDirective)
                                .filter(t -> t != null && DIRECTIVES.contains(t)).findFirst().orElse(d);
                    }
                    return new Beat(d, beat.extended().stream().map(WorkerStore.Extended::jobId).toList(), now);
                });
    }

    /** An operator's directive for a worker, delivered with its next heartbeat. */
    public Uni<Void> direct(String workerId, String directive) {
        return workers.setDirective(workerId, directive, OperationTime.of(clock));
    }

    /** The known workers, most recently seen first (the console's workers page). */
    public Uni<List<WorkerRow>> workers(int limit) {
        return workers.list(limit);
    }

    /** A worker silent this long is shown as stale. */
    public Duration staleAfter() {
        return timeoutConfig.heartbeatTimeout();
    }
}
