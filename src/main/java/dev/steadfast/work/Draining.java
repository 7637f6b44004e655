package dev.steadfast.work;

import dev.steadfast.coalescing.Coalescers;
import dev.steadfast.domain.WorkerState;
import dev.steadfast.events.WorkSignal;
import dev.steadfast.maintenance.WorkerTimeoutConfig;
import dev.steadfast.model.WorkerReport;
import dev.steadfast.store.workers.WorkerStateStore;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Who should get no new jobs: every worker while this server shuts down, and a worker that reported itself quiet,
 * draining or terminating (ojs-graceful-shutdown.md 5, 9).
 *
 * <p>Server: on SIGTERM Quarkus first waits {@code quarkus.shutdown.delay} (readiness already down), during which
 * FETCH answers empty at once (long-poll waiters are woken), heartbeats answer the directive {@code quiet} when
 * {@code steadfast.shutdown.quiet-workers} is on, and health answers 503; then it stops accepting connections and
 * waits up to {@code quarkus.shutdown.timeout} for requests in flight (their coalesced writes included); before the
 * pool closes, {@link Coalescers} writes what its coalescers still hold. Jobs held by workers keep their leases; nothing is left active without one.
 *
 * <p>Workers: what a worker reported is read from the database at most once per {@link #FRESH} per worker per
 * instance, so every instance refuses a draining worker within a second of its heartbeat, and FETCH costs no query
 * in between. That read also keeps a worker that only fetches (never sends a heartbeat) on the Workers page: when its
 * row is missing or was last seen more than a third of steadfast.workers.heartbeat-timeout ago, a FETCH records it
 * as seen, one upsert per worker per such interval per instance, never one per FETCH.
 */
@ApplicationScoped
public class Draining {

    private static final Logger LOG = Logger.getLogger(Draining.class);

    /** How long a worker's reported state is trusted before it is read again. */
    static final Duration FRESH = Duration.ofSeconds(1);
    /** Workers remembered per instance; past this the memory starts over. */
    static final int MAX_WORKERS = 100_000;

    private record Known(WorkerState state, Instant readAt) {
    }

    private final WorkerStateStore store;
    private final Duration seenEvery;
    private final WorkSignal signal;
    private final Map<String, Known> workers = new ConcurrentHashMap<>();
    private volatile boolean server;

    public Draining(WorkerStateStore store, WorkSignal signal, WorkerTimeoutConfig config) {
        this.store = store;
        this.seenEvery = config.heartbeatTimeout().dividedBy(3);
        this.signal = signal;
    }

    void onShutdownDelay(@Observes ShutdownDelayInitiatedEvent e) {
        begin();
    }

    void onShutdown(@Observes ShutdownEvent e) {
        begin();
    }

    /** From now on this server hands out no job. */
    public void begin() {
        if (!server) {
            server = true;
            LOG.info("shutting down: FETCH answers empty, workers are told to go quiet, in-flight requests finish");
            signal.wakeAll();
        }
    }

    public boolean serverDraining() {
        return server;
    }

    /** What {@code workerId} last reported, with the operator's directive for it (empty: never heard from). */
    public Uni<Optional<WorkerReport>> reportOf(String workerId) {
        return store.find(workerId);
    }

    /**
     * Whether {@code workerId} (null: an anonymous FETCH) is known, without asking the database, to accept work now:
     * false while the server drains, for a worker that said it is quiet or draining, and for one not read lately.
     */
    public boolean acceptsNow(String workerId) {
        if (server) {
            return false;
        }
        if (workerId == null) {
            return true;
        }
        Known k = workers.get(workerId);
        return k != null && k.state().acceptsWork();
    }

    /** Whether {@code workerId} (null: an anonymous FETCH) may be handed jobs now. */
    public Uni<Boolean> acceptsWork(String workerId, Instant now) {
        if (server) {
            return Uni.createFrom().item(false);
        }
        return workerId == null ? Uni.createFrom().item(true) : acceptsWorkAsWorker(workerId, now, true);
    }

    /**
     * A heartbeat from {@code workerId} that said {@code state} (null: said nothing). Saying nothing counts as
     * running when the worker was last known otherwise: a worker restarted under the same id must not stay
     * refused; a draining worker that keeps saying {@code drain} stays refused.
     */
    public Uni<Void> heartbeat(String workerId, WorkerState state, Instant now) {
        if (state != null) {
            return reported(workerId, state, now);
        }
        return acceptsWorkAsWorker(workerId, now, false).flatMap(ok -> ok ? Uni.createFrom().voidItem()
                : reported(workerId, WorkerState.RUNNING, now));
    }

    /** {@code fetching}: a FETCH asks, so a worker not seen for {@link #seenEvery} is recorded as seen now. */
    private Uni<Boolean> acceptsWorkAsWorker(String workerId, Instant now, boolean fetching) {
        Known k = workers.get(workerId);
        if (k != null && now.isBefore(k.readAt().plus(FRESH))) {
            return Uni.createFrom().item(k.state().acceptsWork());
        }
        return store.find(workerId).flatMap(found -> {
            WorkerState s = found.map(WorkerReport::state).orElse(WorkerState.RUNNING);
            remember(workerId, s, now);
            Instant last = found.map(WorkerReport::lastSeen).orElse(null);
            if (!fetching || last != null && last.isAfter(now.minus(seenEvery))) {
                return Uni.createFrom().item(s.acceptsWork());
            }
            // the Workers page is a view: a failed write must not refuse the FETCH
            return store.seen(workerId, now).onFailure().recoverWithNull().replaceWith(s.acceptsWork());
        });
    }

    /** Records what a worker reported in its heartbeat. */
    public Uni<Void> reported(String workerId, WorkerState state, Instant now) {
        return store.report(workerId, state, now).invoke(() -> remember(workerId, state, now));
    }

    private void remember(String workerId, WorkerState s, Instant now) {
        if (workers.size() >= MAX_WORKERS) {
            workers.clear();
        }
        workers.put(workerId, new Known(s, now));
    }
}
