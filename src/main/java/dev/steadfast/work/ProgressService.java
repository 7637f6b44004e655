package dev.steadfast.work;

import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.domain.Progress;
import dev.steadfast.store.workers.ProgressStore.JobProgress;
import dev.steadfast.store.workers.ProgressStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

/**
 * PROGRESS (ojs-progress.md): a worker reports how far its active job got; anyone reads it back. A report is
 * fire-and-forget: one for a job that is no longer active (finished, failed, lease lost) changes nothing and is
 * still answered 200 with what is stored (6.1); only an unknown job is a 404.
 */
@ApplicationScoped
public class ProgressService {

    private final ProgressStore store;
    private final Clock clock;

    public ProgressService(ProgressStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** What a report carries; {@code value} already clamped, at least one of value and data present. */
    public record Report(Double value, String message, String dataJson, String checkpointJson) {
    }

    /** A job's visible progress; {@code progress} null when nothing was reported in this attempt. */
    public record View(UUID jobId, JobProgress job, Progress progress, boolean applied) {
    }

    public Uni<View> report(UUID id, String workerId, Report r) {
        Instant now = OperationTime.of(clock);
        return store.report(id, workerId, now, (previous, attempt, run) -> new Progress(attempt, run,
                        Progress.merged(previous, attempt, run, r.value()), r.message(), r.dataJson(),
                        r.checkpointJson(), now))
                .flatMap(applied -> get(id).map(v -> new View(id, v.job(), v.progress(), applied)));
    }

    public Uni<View> get(UUID id) {
        return store.read(id).map(o -> {
            JobProgress j = o.orElseThrow(() -> OjsException.notFound("job", id.toString()));
            return new View(id, j, Progress.visible(j.stored(), j.state(), j.attempt(), j.run()), false);
        });
    }
}
