package dev.steadfast.service;

import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.store.QueueRow;
import dev.steadfast.store.QueueStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
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

    public QueueService(QueueStore store, Telemetry telemetry, Clock clock) {
        this.store = store;
        this.telemetry = telemetry;
        this.clock = clock;
    }

    /** Pauses the queue (creating its row when the server has not seen it yet); 400 for a malformed name. */
    public Uni<QueueRow> pause(String name, String by) {
        JobRules.checkQueue(name);
        Instant now = JobService.now(clock);
        return store.pause(name, now).invoke(q -> {
            telemetry.queuePaused(name, by, now);
            LOG.infof("queue '%s' paused by %s", name, by);
        });
    }

    /** Resumes the queue; 404 when the server has never seen it. */
    public Uni<QueueRow> resume(String name, String by) {
        JobRules.checkQueue(name);
        Instant now = JobService.now(clock);
        return store.resume(name).map(o -> {
            QueueRow q = o.orElseThrow(() -> OjsException.notFound("queue", name));
            telemetry.queueResumed(name, by, now);
            LOG.infof("queue '%s' resumed by %s", name, by);
            return q;
        });
    }

    /** The instant a resume answer reports (the binding's {@code resumed_at}). */
    public Instant now() {
        return JobService.now(clock);
    }
}
