package dev.steadfast.events;

import dev.steadfast.store.JobNotifications;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Wakes long-polling FETCH requests when work may have arrived in their queues: this instance's PUSHes, retries
 * and snoozes coming due (a timer at their run_at), and other instances' new jobs through PostgreSQL
 * LISTEN/NOTIFY ({@link JobNotifications}). A waiter holds no database connection: it is a callback and a timer.
 * A wake is only a hint: the woken FETCH claims with the usual statement and may find nothing (another worker
 * was faster), then waits again until its deadline.
 */
@ApplicationScoped
public class WorkSignal {

    /** One waiting FETCH: fires once, on a wake of one of its queues (true) or its timer (false). */
    private static final class Waiter {
        final List<String> queues;
        final java.util.function.Consumer<Boolean> wake;
        final AtomicBoolean fired = new AtomicBoolean();

        Waiter(List<String> queues, java.util.function.Consumer<Boolean> wake) {
            this.queues = queues;
            this.wake = wake;
        }

        boolean fire(boolean signalled) {
            if (fired.compareAndSet(false, true)) {
                wake.accept(signalled);
                return true;
            }
            return false;
        }
    }

    private final Vertx vertx;
    private final Clock clock;
    private final Map<String, Set<Waiter>> waiting = new HashMap<>();
    /** Due-time timers per queue and 10 ms, so a burst of retries sets few timers. */
    private final BucketTimers timers;

    public WorkSignal(Vertx vertx, Clock clock) {
        this.vertx = vertx;
        this.clock = clock;
        this.timers = new BucketTimers(vertx, clock, 10, 1, TIMER_HORIZON, MAX_TIMERS);
    }

    /** Listens for other instances' new jobs, when configured (steadfast.fetch.listen, on by default). */
    void listen(@Observes StartupEvent e, JobNotifications notifications, FetchListenConfig config) {
        if (config.listen()) {
            notifications.start(this::wake, this::wakeAll);
        }
    }

    void stop(@Observes ShutdownEvent e, JobNotifications notifications) {
        notifications.stop();
    }

    /**
     * Completes when one of {@code queues} may have work (true), or after {@code max} (false), whichever comes
     * first. Cancelling the returned Uni (the client went away) forgets the waiter.
     */
    public Uni<Boolean> await(List<String> queues, Duration max) {
        return Uni.createFrom().<Boolean>emitter(em -> {
            Waiter w = new Waiter(queues, em::complete);
            synchronized (this) {
                for (String q : queues) {
                    waiting.computeIfAbsent(q, k -> new LinkedHashSet<>()).add(w);
                }
            }
            long timer = vertx.setTimer(Math.max(1, max.toMillis()), id -> w.fire(false));
            em.onTermination(() -> {
                vertx.cancelTimer(timer);
                forget(queues, w);
            });
        });
    }

    private synchronized void forget(List<String> queues, Waiter w) {
        for (String q : queues) {
            Set<Waiter> s = waiting.get(q);
            if (s != null) {
                s.remove(w);
                if (s.isEmpty()) {
                    waiting.remove(q);
                }
            }
        }
    }

    /**
     * Work arrived in {@code queue} and how much is not known (another instance's notification, a due time): every
     * FETCH waiting on it claims again.
     */
    public void wake(String queue) {
        wake(queue, Integer.MAX_VALUE);
    }

    /**
     * Wakes up to {@code n} of the fetches waiting on {@code queue}, longest waiting first. A PUSH wakes one per
     * new job, so the others stay asleep instead of all racing for one job; nothing is lost if a woken one finds
     * the job gone, since the insert's notification wakes every waiter a moment later anyway.
     */
    public void wake(String queue, int n) {
        List<Waiter> woken = new ArrayList<>(Math.min(n, 16));
        synchronized (this) {
            Set<Waiter> s = waiting.get(queue);
            if (s == null) {
                return;
            }
            java.util.Iterator<Waiter> it = s.iterator();
            while (it.hasNext() && woken.size() < n) {
                woken.add(it.next());
                it.remove();
            }
            if (s.isEmpty()) {
                waiting.remove(queue);
            }
        }
        for (Waiter w : woken) {
            w.fire(true);
        }
    }

    /** Work arrived in every queue (e.g. the listening connection came back and may have missed notifications). */
    public void wakeAll() {
        List<String> queues;
        synchronized (this) {
            queues = new ArrayList<>(waiting.keySet());
        }
        queues.forEach(this::wake);
    }

    /** Timers further ahead than this are not set: waiting fetches poll every poll-interval anyway. */
    static final Duration TIMER_HORIZON = Duration.ofSeconds(30);
    /** At most this many due-time timers pending at once (a burst of scheduled jobs must not pile up timers). */
    static final int MAX_TIMERS = 10_000;

    /**
     * A job in {@code queue} becomes claimable at {@code at}: wake its waiters then (now, if it is already due).
     * Only for the next 30 s and up to 10,000 distinct instants (10 ms apart) per instance; later jobs are found
     * by the waiters' own polling (steadfast.fetch.poll-interval).
     */
    public void dueAt(String queue, Instant at) {
        if (at == null || !at.isAfter(clock.instant())) {
            wake(queue);
            return;
        }
        timers.at(queue, at, () -> {
            wake(queue);
            dueListeners.forEach(Runnable::run);
        });
    }

    private final java.util.List<Runnable> dueListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * Runs {@code listener} whenever a due-time timer of {@link #dueAt} fires (a scheduled job or retry of this
     * instance came due within the timer horizon): the retry promoter uses it to show the job available at its
     * time rather than at its next one-second tick.
     */
    public void onDue(Runnable listener) {
        dueListeners.add(listener);
    }

    /**
     * A job was pushed: wake one long-polling fetch of its queue when it is available (so a batch of n jobs wakes
     * the n that waited longest), or set the wake-up for when a scheduled job comes due.
     */
    public void announce(dev.steadfast.model.JobRow row) {
        if (row.state() == dev.steadfast.domain.JobState.AVAILABLE) {
            wake(row.queue(), 1);
        } else if (row.state() == dev.steadfast.domain.JobState.SCHEDULED) {
            dueAt(row.queue(), row.runAt());
        }
    }

    /** Whether any FETCH is waiting (tests, metrics). */
    public synchronized int waiting() {
        Set<Waiter> all = new HashSet<>();
        waiting.values().forEach(all::addAll);
        return all.size();
    }
}
