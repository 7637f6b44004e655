package dev.steadfast.scheduler;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A sub-second periodic trigger on a Vert.x timer, for the tasks whose interval is below the Quarkus scheduler's
 * one-second resolution (a lease that ran out should not wait a second to be reaped). Runs never overlap: a tick
 * that finds the previous run still going is skipped, like the scheduler's SKIP. {@link #cancel()} stops it.
 * Failures are logged by an {@link OutageLog}: one line per database outage, not one per tick.
 */
final class Periodic {

    private final Vertx vertx;
    private final long timer;

    private Periodic(Vertx vertx, long timer) {
        this.vertx = vertx;
        this.timer = timer;
    }

    static Periodic every(Vertx vertx, Duration interval, String name, Supplier<Uni<?>> task) {
        AtomicBoolean busy = new AtomicBoolean();
        OutageLog outages = new OutageLog(Periodic.class, name);
        long id = vertx.setPeriodic(Math.max(10, interval.toMillis()), t -> {
            if (!busy.compareAndSet(false, true)) {
                return;
            }
            Uni<?> run;
            try {
                run = task.get();
            } catch (RuntimeException e) {
                run = Uni.createFrom().failure(e);
            }
            run.subscribe().with(x -> {
                busy.set(false);
                outages.succeeded();
            }, e -> {
                busy.set(false);
                outages.failed(e);
            });
        });
        return new Periodic(vertx, id);
    }

    void cancel() {
        vertx.cancelTimer(timer);
    }
}
