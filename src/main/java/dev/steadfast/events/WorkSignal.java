package dev.steadfast.events;

import dev.steadfast.domain.JobState;
import dev.steadfast.model.JobRow;
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
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Wakes long-polling FETCH requests when work may have arrived in their queues: this instance's PUSHes, retries
 * and snoozes coming due (a timer at their run_at), and other instances' new jobs through PostgreSQL
 * LISTEN/NOTIFY ({@link JobNotifications}). A waiter holds no database connection: it is a callback and a timer.
 * A wake is only a hint: the woken FETCH claims with the usual statement and may find nothing (another worker
 * was faster), then waits again until its deadline.
 *
 * <p>Waiters of one queue are of two kinds. A <em>plain</em> one takes any job of its queues (no tenant named, a
 * worker known to accept work): one is as good as another, so a wake for {@code n} jobs wakes the {@code n} that
 * waited longest and no more, and a wake of unknown size ({@link Wake#MAYBE_MORE}: a notification, a due time)
 * wakes one, which wakes the next when its claim came back full ({@code WorkerService}). A <em>restricted</em> one
 * (a tenant's FETCH, a worker not known to accept work) may not be able to take the job, so every wake of its
 * queues wakes it. Before, a notification woke every waiter of the queue: with eight idle workers each PUSH cost
 * eight claims, seven of them empty.
 */
@ApplicationScoped
public class WorkSignal {

    /** Why a waiting FETCH woke up. */
    public enum Wake {
        /** Its wait (or one poll interval of it) ran out. */
        TIMEOUT,
        /** A wake for a known number of jobs, one per waiter woken (this instance's PUSH). */
        JOB,
        /** Work arrived and how much is not known: a claim that comes back full should wake the next waiter. */
        MAYBE_MORE
    }

    /** One waiting FETCH: fires once, on a wake of one of its queues or its timer. */
    private static final class Waiter {
        final List<String> queues;
        final boolean plain;
        final Consumer<Wake> wake;
        final AtomicBoolean fired = new AtomicBoolean();

        Waiter(List<String> queues, boolean plain, Consumer<Wake> wake) {
            this.queues = queues;
            this.plain = plain;
            this.wake = wake;
        }

        boolean fire(Wake why) {
            if (fired.compareAndSet(false, true)) {
                wake.accept(why);
                return true;
            }
            return false;
        }
    }

    /** The waiters of one queue, longest waiting first. */
    private static final class Waiting {
        final Set<Waiter> plain = new LinkedHashSet<>();
        final Set<Waiter> restricted = new LinkedHashSet<>();

        Set<Waiter> of(Waiter w) {
            return w.plain ? plain : restricted;
        }

        boolean isEmpty() {
            return plain.isEmpty() && restricted.isEmpty();
        }
    }

    private final Vertx vertx;
    private final Clock clock;
    private final Map<String, Waiting> waiting = new HashMap<>();
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
            // a notification says a queue got jobs, not how many: one plain waiter, which passes it on if it filled up
            notifications.start(this::notified, this::wakeAll);
        }
    }

    void stop(@Observes ShutdownEvent e, JobNotifications notifications) {
        notifications.stop();
    }

    /** A notification: {@code queue} got new jobs, how many not known (another instance's or this one's insert). */
    public void notified(String queue) {
        wake(queue, 1, Wake.MAYBE_MORE);
    }

    /**
     * Completes when one of {@code queues} may have work (why: {@link Wake}), or after {@code max}
     * ({@link Wake#TIMEOUT}), whichever comes first. {@code plain}: the FETCH takes any job of its queues (see the
     * class comment). Cancelling the returned Uni (the client went away) forgets the waiter.
     */
    public Uni<Wake> await(List<String> queues, Duration max, boolean plain) {
        return Uni.createFrom().<Wake>emitter(em -> {
            Waiter w = new Waiter(queues, plain, em::complete);
            synchronized (this) {
                for (String q : queues) {
                    Waiting at = waiting.computeIfAbsent(q, k -> new Waiting());
                    at.of(w).add(w);
                }
            }
            long timer = vertx.setTimer(Math.max(1, max.toMillis()), id -> w.fire(Wake.TIMEOUT));
            em.onTermination(() -> {
                vertx.cancelTimer(timer);
                forget(queues, w);
            });
        });
    }

    private synchronized void forget(List<String> queues, Waiter w) {
        for (String q : queues) {
            Waiting at = waiting.get(q);
            if (at != null) {
                at.of(w).remove(w);
                if (at.isEmpty()) {
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
        wake(queue, Integer.MAX_VALUE, Wake.MAYBE_MORE);
    }

    /**
     * {@code n} jobs arrived in {@code queue}: wakes the {@code n} plain fetches that waited longest, and every
     * restricted one. A PUSH wakes one per new job, so the others stay asleep instead of all racing for one job;
     * nothing is lost if a woken one finds the job gone, since the insert's notification wakes another waiter a
     * moment later anyway.
     */
    public void wake(String queue, int n) {
        wake(queue, n, Wake.JOB);
    }

    private void wake(String queue, int n, Wake why) {
        List<Waiter> woken = new ArrayList<>();
        synchronized (this) {
            Waiting at = waiting.get(queue);
            if (at == null) {
                return;
            }
            int plain = 0;
            Iterator<Waiter> it = at.plain.iterator();
            while (it.hasNext() && plain < n) {
                Waiter w = it.next();
                it.remove();
                if (!w.fired.get()) { // one woken through another of its queues is on its way out
                    woken.add(w);
                    plain++;
                }
            }
            woken.addAll(at.restricted);
            at.restricted.clear();
            if (at.isEmpty()) {
                waiting.remove(queue);
            }
        }
        for (Waiter w : woken) {
            w.fire(why);
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

    private final List<Runnable> dueListeners = new CopyOnWriteArrayList<>();

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
    public void announce(JobRow row) {
        if (row.state() == JobState.AVAILABLE) {
            wake(row.queue(), 1);
        } else if (row.state() == JobState.SCHEDULED) {
            dueAt(row.queue(), row.runAt());
        }
    }

    /** Whether any FETCH is waiting (tests, metrics). */
    public synchronized int waiting() {
        Set<Waiter> all = new HashSet<>();
        waiting.values().forEach(at -> {
            all.addAll(at.plain);
            all.addAll(at.restricted);
        });
        return all.size();
    }
}
