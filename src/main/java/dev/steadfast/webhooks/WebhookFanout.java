package dev.steadfast.webhooks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobIds;
import dev.steadfast.domain.webhook.EventFilter;
import dev.steadfast.events.EventLog;
import dev.steadfast.events.JobEvent;
import dev.steadfast.http.Json;
import dev.steadfast.store.webhooks.ActiveSubscription;
import dev.steadfast.store.webhooks.NewDelivery;
import dev.steadfast.store.webhooks.WebhookStore;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Turns this instance's events into deliveries: each event this instance emits ({@link EventLog#onLocal}) is matched
 * against the active subscriptions, and one delivery per match is written (one statement for everything gathered in
 * {@link #FLUSH_MS} ms; a tenant's subscription is checked against the job's tenant in that statement). Each
 * instance writes its own events' deliveries, so an event is written once whichever instances run.
 *
 * <p>What this costs when nothing subscribes: the listener reads one volatile list and finds it empty; no
 * statement, no allocation. The active subscriptions are reread on the dispatcher's tick
 * (steadfast.webhooks.dispatch-interval) and at once after a change made through this instance, so a subscription
 * made through another instance receives events within one tick.
 *
 * <p>The delivery events themselves ({@code webhook.delivered}, {@code webhook.failed}, {@code webhook.dead}) are
 * never delivered: a {@code *} subscription whose endpoint fails would otherwise feed on its own failures.
 *
 * <p>Limits: an event is delivered at least once from the moment its delivery row is written. Between the event
 * (after its job's change committed) and that write, at most {@link #FLUSH_MS} ms plus one statement, the event lives
 * only in memory: an instance killed in that window loses those events' deliveries. While the database is away, at
 * most {@link #MAX_QUEUED} deliveries wait in memory and the write is retried every second.
 */
@ApplicationScoped
public class WebhookFanout {

    static final long FLUSH_MS = 10;
    static final long RETRY_MS = 1000;
    static final int MAX_QUEUED = 100_000;
    static final int MAX_PER_STATEMENT = 1000;
    static final Set<String> NEVER_DELIVERED = Set.of("webhook.delivered", "webhook.failed", "webhook.dead");
    private static final Logger LOG = Logger.getLogger(WebhookFanout.class);

    /** An active subscription with its filter read once. */
    record Matcher(String id, String tenantId, EventFilter filter) {
    }

    private volatile List<Matcher> active = List.of();
    private final ConcurrentLinkedQueue<NewDelivery> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean flushing = new AtomicBoolean();
    private final WebhookStore store;
    private final ObjectMapper json;
    private final Vertx vertx;
    private final Clock clock;
    private volatile Runnable written = () -> { };

    public WebhookFanout(WebhookStore store, ObjectMapper json, Vertx vertx, Clock clock) {
        this.store = store;
        this.json = json;
        this.vertx = vertx;
        this.clock = clock;
    }

    void start(@Observes StartupEvent e, EventLog events) {
        events.onLocal(this::accept);
    }

    /** Called after deliveries were written (the dispatcher sends them at once rather than at its next tick). */
    void onWritten(Runnable r) {
        written = r;
    }

    /** True while at least one subscription is active (as last read). */
    boolean anyActive() {
        return !active.isEmpty();
    }

    int activeCount() {
        return active.size();
    }

    /** Rereads the active subscriptions. */
    Uni<Void> reload() {
        return store.active().map(subs -> {
            List<Matcher> m = new ArrayList<>(subs.size());
            for (ActiveSubscription s : subs) {
                m.add(new Matcher(s.id(), s.tenantId(), new EventFilter(s.events(), s.queues(), s.jobTypes())));
            }
            active = List.copyOf(m);
            return null;
        }).replaceWithVoid();
    }

    void accept(JobEvent e) {
        List<Matcher> subs = active;
        if (subs.isEmpty() || NEVER_DELIVERED.contains(e.type())) {
            return;
        }
        String body = null;
        for (Matcher m : subs) {
            if (!m.filter().matches(e.type(), e.queue(), e.jobType())) {
                continue;
            }
            if (body == null) {
                body = Json.write(json, JobEvent.cloudEvent(e));
            }
            if (queued.incrementAndGet() > MAX_QUEUED) {
                queued.decrementAndGet();
                LOG.warnf("webhook delivery of %s to %s dropped: %d deliveries already wait to be written",
                        e.id(), m.id(), MAX_QUEUED);
                continue;
            }
            queue.add(new NewDelivery("del_" + JobIds.nextPlain(e.time().toEpochMilli()), m.id(), e.id(), e.type(),
                    e.subject(), body));
        }
        if (body != null && flushing.compareAndSet(false, true)) {
            vertx.setTimer(FLUSH_MS, id -> flush());
        }
    }

    private void flush() {
        List<NewDelivery> batch = new ArrayList<>();
        for (NewDelivery d = queue.poll(); d != null && batch.size() < MAX_PER_STATEMENT; d = queue.poll()) {
            batch.add(d);
        }
        if (batch.isEmpty()) {
            flushing.set(false);
            return;
        }
        store.insertDeliveries(batch, clock.instant()).subscribe().with(n -> {
            queued.addAndGet(-batch.size());
            written.run();
            next(FLUSH_MS);
        }, err -> {
            LOG.warnf("could not write %d webhook deliveries, retrying in %d ms: %s", batch.size(), RETRY_MS,
                    err.getMessage());
            queue.addAll(batch);
            next(RETRY_MS);
        });
    }

    private void next(long delay) {
        if (queue.isEmpty()) {
            flushing.set(false);
            if (!queue.isEmpty() && flushing.compareAndSet(false, true)) {
                vertx.setTimer(delay, id -> flush());
            }
        } else {
            vertx.setTimer(delay, id -> flush());
        }
    }

    /** Forgets the subscriptions and what waits to be written (the reset hook, which empties both tables). */
    public void forget() {
        active = List.of();
        queue.clear();
        queued.set(0);
    }
}
