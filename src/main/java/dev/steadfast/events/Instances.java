package dev.steadfast.events;

import dev.steadfast.store.InstancePresence;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * This instance among the others on the same database ({@link InstancePresence}): it joins at start-up and then
 * looks every two seconds how many instances are present (a poll of the events waits for events still on their
 * way from others only while there are others, see {@link EventLog}). It leaves as soon as shutdown begins (the
 * start of {@code quarkus.shutdown.delay}, or the shutdown itself without a delay), so an instance that is going
 * away is not counted by the others for the seconds it still finishes its requests.
 */
@ApplicationScoped
public class Instances {

    private static final Logger LOG = Logger.getLogger(Instances.class);
    static final long REFRESH_MS = 2000;

    private final InstancePresence presence;
    private final Vertx vertx;
    private volatile int present = 1;
    private volatile long timer = -1;

    public Instances(InstancePresence presence, Vertx vertx) {
        this.presence = presence;
        this.vertx = vertx;
    }

    /**
     * Joins (blocking, at start-up only) under {@code key} and answers the keys of every instance present, this
     * one included.
     */
    public List<Long> join(int key, Duration wait) {
        List<Long> keys;
        try {
            presence.join(key).await().atMost(wait);
            keys = presence.present().await().atMost(wait);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Could not open this instance's presence connection to PostgreSQL ("
                    + e.getMessage() + "); it holds the lock by which instances on one database see each other"
                    + " and goes to steadfast.database.session-url (unset: the pool's URL) with the pool's credentials"
                    + " and TLS settings; behind a pooler in transaction mode see docs/operations/poolers.md.", e);
        }
        present = Math.max(1, keys.size());
        timer = vertx.setPeriodic(REFRESH_MS, id -> presence.present().subscribe().with(
                k -> present = Math.max(1, k.size()),
                e -> LOG.debugf("could not count the instances present: %s", e.getMessage())));
        return keys;
    }

    /** Whether another instance was present at the last look (at most two seconds ago). */
    public boolean othersPresent() {
        return present > 1;
    }

    /** Another instance sent something just now: it is present, whatever the last look said. */
    void heardFromAnother() {
        if (present < 2) {
            present = 2;
        }
    }

    void onShutdownDelay(@Observes ShutdownDelayInitiatedEvent e) {
        leave();
    }

    void onShutdown(@Observes ShutdownEvent e) {
        leave();
    }

    private synchronized void leave() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
        presence.leave();
    }
}
