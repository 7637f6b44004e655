package dev.steadfast.queues;

import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.events.Telemetry;
import dev.steadfast.model.QueueRow;
import dev.steadfast.stats.StateCounts;
import dev.steadfast.stats.StatsService;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.queues.QueueStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Pause and resume (ojs-http-binding.md 11.3/11.4, ojs-admin-api.md 6.3/6.4), for the API and the console alike.
 * A paused queue hands out no jobs (the claim statement checks the switch) but still accepts new ones, which
 * accumulate as available. Each change emits queue.paused / queue.resumed naming who made it.
 */
@ApplicationScoped
public class QueueService {

    private static final Logger LOG = Logger.getLogger(QueueService.class);

    private final QueueStore store;
    private final Telemetry telemetry;
    private final Clock clock;
    private final StatsService stats;
    private final JobStore jobs;

    public QueueService(QueueStore store, Telemetry telemetry, Clock clock, StatsService stats, JobStore jobs) {
        this.store = store;
        this.jobs = jobs;
        this.telemetry = telemetry;
        this.clock = clock;
        this.stats = stats;
    }

    /** Every known queue's row (GET /ojs/v1/queues, the console's job filters). */
    public Uni<List<QueueRow>> list() {
        return jobs.queues();
    }

    /** One queue's row and its jobs per state, counted now (GET /ojs/v1/queues/{name}/stats). */
    public record Depth(QueueRow queue, StateCounts counts, Instant computedAt) {
    }

    /**
     * The queue's exact depth; 404 when the server has neither a row for it nor any of its jobs, 400 for a
     * malformed name.
     */
    public Uni<Depth> depth(String name) {
        JobRules.checkQueue(name);
        Instant now = OperationTime.of(clock);
        return Uni.combine().all().unis(store.find(name), stats.countByState(name)).asTuple().map(t -> {
            StateCounts c = t.getItem2();
            long total = c.byState().values().stream().mapToLong(Long::longValue).sum();
            if (t.getItem1().isEmpty() && total == 0) {
                throw OjsException.notFound("queue", name);
            }
            return new Depth(t.getItem1().orElse(new QueueRow(name, false, null, null)), c, now);
        });
    }

    /** Pauses the queue (creating its row when the server has not seen it yet); 400 for a malformed name. */
    public Uni<QueueRow> pause(String name, String by) {
        JobRules.checkQueue(name);
        Instant now = OperationTime.of(clock);
        return store.pause(name, now).invoke(q -> {
            telemetry.queuePaused(name, by, now);
            LOG.infof("queue '%s' paused by %s", name, by);
        });
    }

    /** Resumes the queue; 404 when the server has never seen it. */
    public Uni<QueueRow> resume(String name, String by) {
        JobRules.checkQueue(name);
        Instant now = OperationTime.of(clock);
        return store.resume(name).map(o -> {
            QueueRow q = o.orElseThrow(() -> OjsException.notFound("queue", name));
            telemetry.queueResumed(name, by, now);
            LOG.infof("queue '%s' resumed by %s", name, by);
            return q;
        });
    }

    /** The instant a resume answer reports (the binding's {@code resumed_at}). */
    public Instant now() {
        return OperationTime.of(clock);
    }
}
