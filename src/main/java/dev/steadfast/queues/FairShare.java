package dev.steadfast.queues;

import dev.steadfast.domain.ProducerSlots;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Applies {@link ProducerSlots} (steadfast.fairness.*) before a PUSH is read: a producer request beyond the slots
 * is paused, unread, and waits in arrival order until a slot frees or the workers fall quiet. Worker requests
 * only mark the time they arrived. A waiting PUSH holds no thread and no database connection; the producer simply
 * sees a slower answer, which is what slows a closed-loop producer down.
 */
@ApplicationScoped
class FairShare {

    private record Waiting(RoutingContext rc, Context context) {
    }

    private final ProducerSlots rule;
    private final Vertx vertx;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private volatile long lastWorker = Long.MIN_VALUE;
    private int inFlight;
    private boolean timerSet;

    public FairShare(FairnessConfig config, Vertx vertx) {
        this.rule = new ProducerSlots(config.producerSlots(), config.workerWindow());
        this.vertx = vertx;
    }

    void install(@Observes Router router) {
        if (rule.enabled()) {
            router.route("/ojs/v1/*").order(-990).handler(this::arrive);
        }
    }

    static boolean producer(String method, String path) {
        return "POST".equals(method) && ("/ojs/v1/jobs".equals(path) || "/ojs/v1/jobs/batch".equals(path));
    }

    private void arrive(RoutingContext rc) {
        String path = rc.normalizedPath();
        if (path.startsWith("/ojs/v1/workers/")) {
            lastWorker = System.nanoTime();
            rc.next();
            return;
        }
        if (!producer(rc.request().method().name(), path)) {
            rc.next();
            return;
        }
        // Vert.x calls (pause, resume, closed, the end handlers) may hold the connection's lock: never make one
        // while holding ours, so pause first and decide after.
        rc.request().pause();
        Waiting self = new Waiting(rc, Vertx.currentContext());
        boolean admitted;
        synchronized (this) {
            admitted = waiting.isEmpty() && rule.admit(inFlight, lastWorker, System.nanoTime());
            if (admitted) {
                inFlight++;
            } else {
                waiting.add(self);
            }
        }
        if (admitted) {
            rc.request().resume();
            start(rc);
        } else {
            checkLater();
        }
    }

    private void start(RoutingContext rc) {
        AtomicBoolean done = new AtomicBoolean();
        rc.addEndHandler(v -> { // the response ended, failed or its connection closed
            if (done.compareAndSet(false, true)) {
                finished();
            }
        });
        rc.next();
    }

    private void finished() {
        synchronized (this) {
            inFlight--;
        }
        release();
    }

    /** Starts the waiting requests that may start now, each on its own connection's context. */
    private void release() {
        while (true) {
            Waiting w;
            synchronized (this) {
                if (waiting.isEmpty() || !rule.admit(inFlight, lastWorker, System.nanoTime())) {
                    return;
                }
                w = waiting.poll();
                inFlight++;
            }
            w.context().runOnContext(v -> {
                if (w.rc().response().closed()) {
                    finished(); // the client went away while it waited: give the slot to the next
                    return;
                }
                w.rc().request().resume();
                start(w.rc());
            });
        }
    }

    /** While requests wait, looks again after the worker window, in case the workers fell quiet. */
    private void checkLater() {
        synchronized (this) {
            if (timerSet) {
                return;
            }
            timerSet = true;
        }
        vertx.setTimer(Math.max(1, rule.workerWindow().toMillis()), id -> {
            boolean again;
            synchronized (this) {
                timerSet = false;
            }
            release();
            synchronized (this) {
                again = !waiting.isEmpty();
            }
            if (again) {
                checkLater();
            }
        });
    }
}
