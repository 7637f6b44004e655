package dev.steadfast.coalescing;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A small set of rows this instance remembers and rereads at most once per {@code maxAge} (which queues are bounded,
 * which are limited). Single flight: when the value is older than that, the first caller starts one reload and the
 * callers meanwhile get the value they would have got before (stale by less than one reload); only before the first
 * load, when there is nothing to serve, do they all wait for that one load. A failed reload is retried by the next
 * caller. The time is an input ({@code now}), so callers pass the instant they read once per operation.
 *
 * <p>Hand-made on purpose, beside the Caffeine caches elsewhere (stats.DepthCounts, work.HeldAttempts): quarkus-cache
 * offers only expire-after-write, under which every PUSH or FETCH arriving while the value reloads (once a second)
 * would wait for the reload. Caffeine's own refresh-after-write would not make them wait, but its refresh interval
 * is one per cache and a write restarts it, so {@link #changed} could not apply a local change at once and still
 * have the next caller reread the rows; it hands the caller that finds the value stale the old value, where here
 * that caller waits for the reread; and it reads one ticker per cache, where here each caller passes its
 * {@code now}. RefreshedSnapshotTest pins each of these.
 *
 * @param <T> the value, immutable
 */
public final class RefreshedSnapshot<T> {

    private record Loaded<T>(T value, Instant at) {
    }

    private final Supplier<Uni<T>> load;
    private final Duration maxAge;
    private volatile Loaded<T> current;
    /** The reload under way, shared by the callers that wait for it; null when none is. */
    private Uni<T> loading;
    /** Counts local changes: a reload that began before one may have read the rows without it. */
    private long changes;

    /** {@code load} reads the value; it is called by one caller at a time. */
    public RefreshedSnapshot(Duration maxAge, Supplier<Uni<T>> load) {
        this.maxAge = maxAge;
        this.load = load;
    }

    /** The value at {@code now}: as remembered while fresh, else as remembered while one caller reloads it. */
    public Uni<T> get(Instant now) {
        Loaded<T> c = current;
        if (c != null && now.isBefore(c.at().plus(maxAge))) {
            return Uni.createFrom().item(c.value());
        }
        Uni<T> shared;
        synchronized (this) {
            if (loading == null) {
                loading = reload(now);
                shared = loading;
            } else if (c != null) {
                return Uni.createFrom().item(c.value());
            } else {
                shared = loading;
            }
        }
        return onCallersContext(shared);
    }

    /** The shared load answers every waiter on the thread that ran it; each goes on in its own context. */
    private static <T> Uni<T> onCallersContext(Uni<T> shared) {
        CallerContext caller = CallerContext.current();
        return shared.emitOn(r -> caller.deliver(r, Runnable::run));
    }

    private Uni<T> reload(Instant now) {
        long before = changes;
        return Uni.createFrom().<T>deferred(load::get).invoke(v -> {
                    synchronized (this) {
                        if (before == changes) { // else keep the locally changed value, still marked stale
                            current = new Loaded<>(v, now);
                        }
                    }
                })
                .eventually(() -> {
                    synchronized (this) {
                        loading = null;
                    }
                }).memoize().indefinitely();
    }

    /**
     * Applies a change made by this instance at once ({@code change} of the remembered value, when there is one)
     * and marks the value stale, so the next caller rereads what other instances may have changed too.
     */
    public synchronized void changed(UnaryOperator<T> change) {
        changes++;
        Loaded<T> c = current;
        if (c != null) {
            current = new Loaded<>(change.apply(c.value()), Instant.MIN);
        }
    }

    /** Forgets the value (the tables were emptied): the next caller loads it again, and the others wait for it. */
    public synchronized void forget() {
        changes++;
        current = null;
    }
}
